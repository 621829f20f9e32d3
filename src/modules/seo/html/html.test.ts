import { describe, expect, test } from 'bun:test'
import { contentText } from '../content-text.ts'
import { analyseBody } from './document.ts'

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
  test("paragraphs in document order, with HTML's implied ends: a <p> closes the open one, a stray </p> is an empty one", () => {
    expect(analyseBody('<p>one<p>two</p>three</p><p>four</p>').paragraphs.map((p) => p.text)).toEqual(['one', 'two', '', 'four'])
    expect(contentText('<p>one<p>two</p>three</p><p>four</p>')).toBe('one\ntwo\nthree\nfour')
  })
  test('stray end tags and unterminated tags do not throw; a tag cut off by the end is dropped, as browsers do', () => {
    expect(contentText('</p>hi <b')).toBe('hi')
    expect(contentText('a < b and c > d')).toBe('a < b and c > d')
    expect(contentText('x</br>y <!-- never closed')).toBe('x\ny')
  })
})

describe('entities', () => {
  test('named, decimal, hex, invalid, in text and attributes', () => {
    expect(contentText('<p>&lt;&gt;&quot;&#39;&#x41;&mdash;&unknown;&#0;&#xD800;</p>')).toBe('<>"\'A—&unknown;\uFFFD\uFFFD')
    // Every named entity of HTML, not a table of the common ones: with and without the semicolon where HTML allows it.
    expect(contentText('<p>&hearts; &NotNestedLessLess; &frac34; &Zopf; &copy &amp</p>')).toBe('♥ ⪡̸ ¾ ℤ © &')
    expect(analyseBody('<a href="/a?x=1&amp;y=&quot;2&quot;" rel="&lsquo;n&rsquo;">a</a>').links).toEqual([
      { href: '/a?x=1&y="2"', rel: '‘n’' },
    ])
  })
})
