import { describe, expect, test } from 'bun:test'
import { withHeadingIds } from './heading-ids.ts'
import { anchorFromText, toc } from './toc.ts'
import { E0_HTML, Z0_HTML } from './worked-examples.ts'

const ids = (html: string) => toc(html).map((item) => item.id)

describe('toc (§5)', () => {
  test('anchors', () => {
    expect(anchorFromText('什么是静态网站生成器？')).toBe('什么是静态网站生成器')
    expect(anchorFromText("What's new in Ｎode 22?")).toBe('whats-new-in-node-22')
    expect(anchorFromText('2026 roadmap')).toBe('s-2026-roadmap')
    expect(anchorFromText('!!!')).toBe('section')
    expect(anchorFromText(`${'a'.repeat(63)} b`)).toBe('a'.repeat(63))
    expect([...anchorFromText('字'.repeat(70))].length).toBe(64)
  })
  test('items carry text, title alias and level; empty and quoted headings are skipped', () => {
    expect(toc('<h2> A  b </h2><h3></h3><blockquote><h2>q</h2></blockquote><code><h3>c</h3></code><h4>d</h4>')).toEqual([
      { id: 'a-b', text: 'A b', title: 'A b', level: 2 },
    ])
  })
  test('own ids are kept when usable; duplicates get -2 against earlier items and any id in the document', () => {
    const html = '<div id="intro"></div><h2>Intro</h2><h2 id="own">X</h2><h2 id="own">Own</h2><h2 id="a b">Intro</h2><h3>Own</h3>'
    expect(ids(html)).toEqual(['intro-2', 'own', 'own-2', 'intro-3', 'own-3'])
  })
})

describe('withHeadingIds', () => {
  test('writes the TOC ids onto h2/h3 and changes nothing else', () => {
    const html = '<p>x</p>\n<h2 class="t">Why?</h2><H3 id="">How</H3><h2 id="keep">Keep</h2><h3 title="a id=b" id=\'bad id\'>Q</h3>'
    expect(withHeadingIds(html)).toBe(
      '<p>x</p>\n<h2 id="why" class="t">Why?</h2><H3 id="how">How</H3><h2 id="keep">Keep</h2><h3 title="a id=b" id="q">Q</h3>',
    )
  })
  test('idempotent, and the TOC of the result has the same ids', () => {
    for (const html of [E0_HTML, Z0_HTML, `${Z0_HTML}<h3>参考资料</h3>`, '<h2 id="x">A</h2><h2>x</h2><h2 id="x">B</h2>']) {
      const once = withHeadingIds(html)
      expect(withHeadingIds(once)).toBe(once)
      expect(ids(once)).toEqual(ids(html))
    }
  })
  test('leaves html without TOC headings untouched', () => {
    const html = '<p>Plain &amp; <b>simple</b></p><h4>Deep</h4>'
    expect(withHeadingIds(html)).toBe(html)
  })
})
