import { describe, expect, test } from 'bun:test'
import type { ImageLookup } from '../media/responsive.ts'
import { readingBody } from './reading.ts'
import { SIZES } from './templates/picture.tsx'
import { tocTree } from './templates/toc.tsx'

describe('the body as the page shows it', () => {
  test('tables and code blocks become focusable, labelled scroll regions, numbered in the page language', () => {
    const html = readingBody(
      '<table><caption>Sizes</caption><tr><td>1</td></tr></table><pre><code>a\tb</code></pre><table><tr><td>2</td></tr></table>',
      'zh',
    )
    expect(html).toBe(
      '<div class="scroll" role="region" tabindex="0" aria-label="表格 1: Sizes"><table><caption>Sizes</caption><tr><td>1</td></tr></table></div>' +
        '<div class="scroll" role="region" tabindex="0" aria-label="代码 1"><pre><code>a\tb</code></pre></div>' +
        '<div class="scroll" role="region" tabindex="0" aria-label="表格 2"><table><tr><td>2</td></tr></table></div>',
    )
  })

  test('code of a known language is highlighted into classed spans, its text still escaped; an unknown one stays plain', () => {
    const html = readingBody(
      '<pre><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;</code></pre><pre><code class="language-nope">x &lt; y</code></pre>',
      'en',
    )
    expect(html).toContain('aria-label="Code 1 (HTML, XML)"')
    expect(html).toContain('<code class="language-html hljs"><span class="hljs-tag">&lt;<span class="hljs-name">script</span>&gt;</span>')
    expect(html).not.toContain('<script')
    expect(html).toContain('aria-label="Code 2"><pre><code class="language-nope">x &lt; y</code></pre>')
  })

  test('everything else passes as it was: text, entities, attributes, Chinese as characters; images load lazily', () => {
    const body =
      '<h2 id="a">Fish &amp; 中文</h2><p><a href="/x?a=1&amp;b=2" title="&quot;q&quot;">x</a></p><figure><img src="/m.png" alt="a"><figcaption>图</figcaption></figure>'
    expect(readingBody(body, 'en')).toBe(body.replace('alt="a"', 'alt="a" loading="lazy" decoding="async"'))
    expect(readingBody('<img src="/m.png" alt="" loading="eager">', 'en')).toBe(
      '<img src="/m.png" alt="" loading="eager" decoding="async">',
    )
  })

  test('a hostile body is bounded: the first 100 code blocks are highlighted, the rest plain; deep nesting passes', () => {
    const many = readingBody('<pre><code class="language-js">let a = 1</code></pre>'.repeat(5_000), 'en')
    expect(many.match(/role="region"/g)).toHaveLength(5_000)
    expect(many.match(/ hljs"/g)).toHaveLength(100)
    const deep = `${'<div>'.repeat(256)}<table><tr><td>x</td></tr></table>${'</div>'.repeat(256)}`
    expect(readingBody(deep, 'en')).toContain('aria-label="Table 1"')
  })
})

describe('our uploads in a body', () => {
  const ours = 'https://blog.example.org/media/2026/11/0123456789abcdef0123456789abcdef.png'
  const images: ImageLookup = (url) =>
    url === ours
      ? {
          width: 1000,
          height: 500,
          sources: [{ type: 'image/avif', srcset: 'a-480.avif 480w, a-1000.avif 1000w' }],
          src: 'a-1000.png',
          srcset: 'a-480.png 480w, a-1000.png 1000w',
          type: 'image/png',
          size: 4000,
        }
      : undefined

  test('one of ours becomes a <picture> with its size; one from elsewhere stays as it is; the memo follows the lookup', () => {
    const body = `<img src="${ours}" alt="ours"><img src="https://x.org/a.png" alt="theirs">`
    expect(readingBody(body, 'en')).toBe(body.replace(/alt="(\w+)"/g, 'alt="$1" loading="lazy" decoding="async"'))
    expect(readingBody(body, 'en', images)).toBe(
      `<picture><source type="image/avif" srcset="a-480.avif 480w, a-1000.avif 1000w" sizes="${SIZES.column}">` +
        `<img src="a-1000.png" alt="ours" loading="lazy" decoding="async" width="1000" height="500" srcset="a-480.png 480w, a-1000.png 1000w" sizes="${SIZES.column}"></picture>` +
        '<img src="https://x.org/a.png" alt="theirs" loading="lazy" decoding="async">',
    )
  })

  test('the scan for image URLs stays linear on tags that never close or never name a src', () => {
    for (const hostile of ['<img '.repeat(200_000), `<img ${'a'.repeat(5000)} src="x">`.repeat(200), '<img src="'.repeat(100_000)])
      expect(typeof readingBody(hostile, 'en', images)).toBe('string')
  })
})

describe('the table of contents', () => {
  const item = (id: string, level: number) => ({ id, text: id, title: id, level })
  test('h3 entries nest under the h2 before them; one before any h2 stands alone', () => {
    const tree = tocTree([item('a', 3), item('b', 2), item('c', 3), item('d', 3), item('e', 2)])
    expect(tree.map((e) => [e.item.id, e.children.map((c) => c.id)])).toEqual([
      ['a', []],
      ['b', ['c', 'd']],
      ['e', []],
    ])
  })
})
