import { describe, expect, test } from 'bun:test'
import { contentText } from '../content-text.ts'
import { analyseBody } from './document.ts'
import { decodeEntities } from './entities.ts'

describe('body text (§2)', () => {
  test('excluded subtrees, entities, block boundaries, whitespace', () => {
    const html =
      '<p>Fish &amp; chips&nbsp;&#x263A;</p><script>var x = "<p>no</p>"</script><pre>code</pre><noscript>n</noscript>' +
      '<template><p>t</p></template><svg><text>s</text></svg><div>one<br>two</div><ul><li>a</li><li>b</li></ul><p>in<b>line</b>  text</p>'
    expect(contentText(html)).toBe('Fish & chips ☺\none\ntwo\na\nb\ninline text')
  })
  test('headings count, alt does not', () => {
    const facts = analyseBody('<h2>Two words</h2><img alt="many many words"><p>three more words</p>')
    expect(facts.units).toBe(5)
    expect(facts.blocks.map((b) => b.heading)).toEqual([true, false])
  })
  test('sections open at h2–h4 and count non-heading text', () => {
    expect(analyseBody('<p>a b</p><h2>x</h2><p>c</p><h5>y</h5><p>d e</p><h4>z</h4>').sections).toEqual([2, 3, 0])
  })
  test('headings in pre/code are ignored; in blockquote they are outside the TOC', () => {
    const facts = analyseBody('<pre><h2>a</h2></pre><blockquote><h2>b</h2></blockquote><h3 ID="c">c</h3>')
    expect(facts.headings.map((h) => [h.text, h.inToc, h.id])).toEqual([
      ['b', false, undefined],
      ['c', true, 'c'],
    ])
  })
  test('media, images, links and ids are collected', () => {
    const facts = analyseBody(
      '<img src="a.png" alt="A" role="none"><video src="v.mp4" poster="p.png"></video><source src="s.webm"><a href="/x" rel="nofollow" id="l">x</a>',
    )
    expect(facts.mediaUrls).toEqual(['a.png', 'v.mp4', 'p.png', 's.webm'])
    expect(facts.images).toEqual([{ src: 'a.png', alt: 'A', role: 'none', ariaHidden: undefined }])
    expect(facts.links).toEqual([{ href: '/x', rel: 'nofollow' }])
    expect([...facts.ids]).toEqual(['l'])
  })
  test('paragraphs in document order, nested ones credited innermost', () => {
    expect(analyseBody('<p>one<p>two</p>three</p><p>four</p>').paragraphs.map((p) => p.text)).toEqual(['onethree', 'two', 'four'])
  })
  test('stray end tags and unterminated tags do not throw', () => {
    expect(contentText('</p>hi <b')).toBe('hi <b')
    expect(contentText('a < b and c > d')).toBe('a < b and c > d')
  })
})

describe('entities', () => {
  test('named, decimal, hex, invalid', () => {
    expect(decodeEntities('&lt;&gt;&quot;&#39;&#x41;&mdash;&unknown;&#0;&#xD800;')).toBe('<>"\'A—&unknown;\uFFFD\uFFFD')
  })
})
