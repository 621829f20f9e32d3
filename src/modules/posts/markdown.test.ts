import { describe, expect, test } from 'bun:test'
import { bodyHtmlOf, prepareContent } from './content.ts'
import { markdownToHtml } from './markdown.ts'

describe('Markdown in', () => {
  test('CommonMark with GFM tables, strikethrough, fenced code, autolinks and footnotes', () => {
    const html = markdownToHtml(
      [
        '# Title',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '~~old~~ see https://example.org',
        '',
        '```ts',
        'let x = 1',
        '```',
        '',
        'Fact.[^1]',
        '',
        '[^1]: Source.',
      ].join('\n'),
    )
    expect(html).toContain('<h1>Title</h1>')
    expect(html).toContain('<td>1</td>')
    expect(html).toContain('<s>old</s>')
    expect(html).toContain('<a href="https://example.org">https://example.org</a>')
    expect(html).toContain('<pre><code class="language-ts">let x = 1\n</code></pre>')
    expect(html).toContain('<li id="fn1" class="footnote-item">')
  })

  test('the converted body is sanitized and gets heading ids like any HTML body', () => {
    const { contentHtml } = prepareContent(markdownToHtml('## Why static?\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))'))
    expect(contentHtml).toContain('<h2 id="why-static">Why static?</h2>')
    expect(contentHtml).not.toContain('onerror')
    expect(contentHtml).not.toContain('href="javascript')
  })

  test('exactly one of contentHtml and contentMarkdown', () => {
    expect(bodyHtmlOf({ contentHtml: '<p>x</p>' })).toBe('<p>x</p>')
    expect(bodyHtmlOf({ contentMarkdown: 'x' })).toBe('<p>x</p>\n')
    for (const req of [{}, { contentHtml: '', contentMarkdown: '' }]) {
      const fields = (() => {
        try {
          bodyHtmlOf(req)
          return []
        } catch (error) {
          return ((error as { data: { errors: { field: string }[] } }).data.errors ?? []).map((e) => e.field)
        }
      })()
      expect(fields).toEqual(['contentHtml', 'contentMarkdown'])
    }
  })

  test('adversarial input converts to a string without throwing', () => {
    for (const piece of ['![', '[^', '[', '**a', '`a``', '<', '> ', '- ', '|a', 'http://a.', '[a]: <', '&#'])
      expect(typeof markdownToHtml(piece.repeat(20_000 / piece.length))).toBe('string')
  })
})
