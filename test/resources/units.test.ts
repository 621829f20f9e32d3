import { describe, expect, test } from 'bun:test'
import { formatUsdt, productLinks, renderCard } from '../../src/modules/resources/card.ts'
import { jsonErrorPosition } from '../../src/modules/resources/json-locate.ts'
import { plainText, summarize } from '../../src/modules/resources/text.ts'
import { sanitizeContentHtml } from '../../src/shared/sanitize.ts'

describe('formatUsdt', () => {
  test('shows two to four decimals without float artefacts', () => {
    expect([0, 5, 100, 1000, 1230, 1999, 10000, 125000, 829900, 1234567].map(formatUsdt)).toEqual([
      '0.00',
      '0.0005',
      '0.01',
      '0.10',
      '0.123',
      '0.1999',
      '1.00',
      '12.50',
      '82.99',
      '123.4567',
    ])
  })
})

describe('plainText and summarize', () => {
  test('strip tags, drop scripts and comments, decode entities, keep block boundaries', () => {
    expect(plainText('<p>a&nbsp;&amp;&lt;b&gt;</p><p>c<!-- x --><script>d</script></p><ul><li>e</li><li>f</li></ul>')).toBe('a &<b> c e f')
    expect(plainText('x &quot;y&quot; &#39;z&#39; &eacute; &#x4e2d;')).toBe(`x "y" 'z' é 中`)
    expect(plainText('1 < 2 and 3 > 2')).toBe('1 < 2 and 3 > 2')
  })

  test('cut long text at a word boundary with an ellipsis, and Chinese at a character', () => {
    const words = Array(60).fill('word').join(' ')
    const summary = summarize(words)
    expect(summary.length).toBeLessThanOrEqual(200)
    expect(summary).toMatch(/^(word )+word…$/)
    const han = '产品说明'.repeat(80)
    expect([...summarize(han)]).toHaveLength(200)
    expect(summarize('short')).toBe('short')
  })
})

describe('cards and links', () => {
  test('the zh link falls back to "product" when the name slugifies to nothing', () => {
    expect(productLinks(7, 'Hi-Fi Guide', '★')).toEqual({ en: '/en/products/7-hi-fi-guide', zh: '/cn/products/7-product' })
  })

  test('a hostile card survives the content sanitizer unchanged and carries no markup from its text', () => {
    const html = renderCard({
      language: 'en',
      href: '/en/products/1-x',
      name: '<b onclick="x">&amp;</b>',
      summary: `"'<>&`,
      priceText: '1.00',
      status: 3,
    })
    expect(sanitizeContentHtml(html)).toBe(html)
    expect(html).toContain('&lt;b onclick="x"&gt;&amp;amp;&lt;/b&gt;')
    expect(html).toContain('Out of stock')
  })
})

describe('jsonErrorPosition', () => {
  test('points at the first character that breaks the grammar', () => {
    expect(jsonErrorPosition('{"a": 1,}')).toEqual({ line: 1, column: 9 })
    expect(jsonErrorPosition('{\n  "a": tru\n}')).toEqual({ line: 2, column: 8 })
    expect(jsonErrorPosition('[1,\n2,\n"abc\n]')).toEqual({ line: 3, column: 5 })
    expect(jsonErrorPosition('{"a": 01}')).toEqual({ line: 1, column: 8 })
    expect(jsonErrorPosition('{"a": 1} x')).toEqual({ line: 1, column: 10 })
    expect(jsonErrorPosition('')).toEqual({ line: 1, column: 1 })
  })
})
