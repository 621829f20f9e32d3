import { describe, expect, test } from 'bun:test'
import { Parser } from 'htmlparser2'
import corpus from './corpus/html.json'
import { prepareContent } from '../../src/modules/posts/content.ts'
import { toc } from '../../src/modules/seo/index.ts'
import { htmlShape, MAX_ELEMENTS, MAX_NESTING, sanitizeContentHtml } from '../../src/shared/sanitize.ts'
import { isSafeId } from '../../src/shared/safe-id.ts'
import { ValidationFailed } from '../../src/shared/errors.ts'

interface Tag {
  name: string
  attrs: Record<string, string>
}

/** Every element of `html` as a browser-grade parser sees it, attribute values decoded. */
function elements(html: string): Tag[] {
  const tags: Tag[] = []
  new Parser({ onopentag: (name, attrs) => tags.push({ name, attrs }) }).end(html)
  return tags
}

const NEVER = new Set(['script', 'style', 'object', 'embed', 'form', 'base', 'meta', 'math', 'svg', 'textarea', 'noscript', 'link'])
/** What a browser makes of a URL attribute before it looks at the scheme: controls, tabs and newlines go. */
const scheme = (url: string) => url.replace(/[\u0000-\u0020]/g, '').toLowerCase()

describe('hostile bodies (test/security/corpus/html.json) come out inert', () => {
  test.each(corpus.map((html, i) => [i, html] as const))('corpus %i', (_, html) => {
    const { contentHtml } = prepareContent(html)
    for (const { name, attrs } of elements(contentHtml)) {
      expect(NEVER.has(name)).toBe(false)
      for (const [attr, value] of Object.entries(attrs)) {
        expect(attr.startsWith('on')).toBe(false)
        expect(['name', 'allow', 'style', 'srcdoc', 'action', 'formaction', 'xlink:href']).not.toContain(attr)
        if (attr === 'id') expect(isSafeId(value)).toBe(true)
        if (['href', 'src', 'poster', 'srcset'].includes(attr)) expect(scheme(value)).not.toMatch(/^(javascript|vbscript|data:text)/)
      }
    }
    for (const item of toc(contentHtml)) expect(isSafeId(item.id)).toBe(true)
    // posts/check judges the sanitized body: its TOC and the stored body's agree on every id.
    expect(toc(contentHtml).map((i) => i.id)).toEqual(toc(sanitizeContentHtml(html)).map((i) => i.id))
  })
})

describe('derived fields (item 12)', () => {
  test('an entity-encoded markup id never reaches toc[].id or the stored heading', () => {
    const { contentHtml } = prepareContent(corpus[0]!)
    expect(toc(contentHtml)).toEqual([{ id: 'encoded-id', text: 'Encoded id', title: 'Encoded id', level: 2 }])
    expect(contentHtml).toStartWith('<h2 id="encoded-id">Encoded id</h2>')
  })
  test('ids and names that clobber document properties are dropped; TOC anchors avoid them', () => {
    expect(sanitizeContentHtml('<img name="cookie" src="/m.png" alt="x"><a id="location" href="/x">l</a><p id="fine">f</p>')).toBe(
      '<img src="/m.png" alt="x" /><a href="/x">l</a><p id="fine">f</p>',
    )
    expect(toc('<h2>Title</h2><h2>title</h2>').map((i) => i.id)).toEqual(['title-2', 'title-3'])
  })
  test('iframes keep no permission policy', () => {
    expect(sanitizeContentHtml('<iframe src="https://www.youtube.com/embed/x" allow="camera"></iframe>')).toBe(
      '<iframe src="https://www.youtube.com/embed/x"></iframe>',
    )
  })
  test('contentText and TOC text are text: decoded characters, to be inserted with textContent', () => {
    const { contentHtml, contentText } = prepareContent(corpus[3]!)
    expect(contentText).toContain("<img src=x onerror=window.__pwned('heading-text')>")
    expect(toc(contentHtml)[0]!.text).toBe("<img src=x onerror=window.__pwned('heading-text')>")
  })
})

describe('nesting and element count (item 10)', () => {
  test('depth is measured as the parser sees it: implied ends and void elements close', () => {
    const many = 1_000_000
    expect(htmlShape('<div><p>a<p>b</div><br><img>', 2, many)).toBe('ok')
    expect(htmlShape('<div><p>a<p>b</div><br><img>', 1, many)).toBe('too deep')
    expect(htmlShape('<p>'.repeat(100_000), 1, many)).toBe('ok')
    expect(htmlShape('<div>'.repeat(100_000), MAX_NESTING, many)).toBe('too deep')
  })
  test('elements are counted, void ones included, and the count stops at the bound', () => {
    expect(htmlShape('<p>a<br><img><p>b', 256, 4)).toBe('ok')
    expect(htmlShape('<p>a<br><img><p>b', 256, 3)).toBe('too many')
    expect(htmlShape('<p>x'.repeat(125_000), MAX_NESTING, MAX_ELEMENTS)).toBe('too many')
  })
  test('a body with more elements than the bound is refused naming contentHtml', () => {
    expect(() => sanitizeContentHtml('<p>x</p>'.repeat(MAX_ELEMENTS))).not.toThrow()
    let thrown: unknown
    try {
      sanitizeContentHtml('<p>x</p>'.repeat(MAX_ELEMENTS + 1))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ValidationFailed)
    expect((thrown as ValidationFailed).data).toEqual({ errors: [{ field: 'contentHtml', message: `more than ${MAX_ELEMENTS} elements` }] })
  })
  test('a body nested deeper than the bound is refused naming contentHtml', () => {
    expect(() => sanitizeContentHtml('<div>'.repeat(MAX_NESTING) + 'ok')).not.toThrow()
    let thrown: unknown
    try {
      sanitizeContentHtml('<div>'.repeat(100_000))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ValidationFailed)
    expect((thrown as ValidationFailed).data).toEqual({
      errors: [{ field: 'contentHtml', message: `elements nested deeper than ${MAX_NESTING} levels` }],
    })
  })
})
