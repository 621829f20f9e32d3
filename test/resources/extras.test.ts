import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sanitizeContentHtml } from '../../src/shared/sanitize.ts'
import { E0_HTML, publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { importCatalogue } from './catalogue.ts'

let folio: Folio
let read: string
const byProductId: Record<string, any> = {}

beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '100000' })
  read = await folio.token('blog:read')
  await importCatalogue(folio)
  for (const status of [1, 2, 3]) {
    const page = await folio.call('POST', '/api/v1/blog/resources/search', { token: read, body: { status, size: 100 } })
    for (const r of page.body.data.records) byProductId[r.productId] = r
  }
})
afterAll(() => folio.dispose())

describe('the spec fields of BlogResourceRes', () => {
  test('are all there with the imported values', () => {
    const r = byProductId['H-100']
    expect(r).toMatchObject({
      productId: 'H-100',
      nameEn: 'Studio Headphones',
      nameZh: '录音室耳机',
      categoryCode: 'headphones',
      categoryName: 'Headphones',
      stock: 10,
      cnyPrice: 1000000,
      usdtPrice: 1299900,
      status: 1,
    })
    expect(typeof r.id).toBe('number')
    expect(r.descriptionEn).toContain('<strong>studio</strong>')
  })
})

describe('agent-friendly extras', () => {
  test('links are the crawlable product paths; a name that slugifies to nothing reads "product"', () => {
    const r = byProductId['H-100']
    expect(r.links).toEqual({ en: `/en/products/${r.id}-studio-headphones`, zh: `/cn/products/${r.id}-lu-yin-shi-er-ji` })
    const book = byProductId['BK-HIFI']
    expect(book.links.zh).toBe(`/cn/products/${book.id}-product`)
    const hostile = byProductId.HOSTILE
    for (const link of Object.values(hostile.links) as string[]) expect(link).toMatch(/^\/(en|cn)\/products\/\d+-[a-z0-9]+(-[a-z0-9]+)*$/)
  })

  test('summaries are plain text: tags stripped, entities decoded, whitespace collapsed, scripts gone', () => {
    expect(byProductId['H-100'].summaryEn).toBe('Closed-back studio headphones & a three metre cable.')
    expect(byProductId['H-100'].summaryZh).toBe('封闭式监听耳机，附带长线。')
    expect(byProductId['BK-HIFI'].summaryEn).toBe('Listening rooms How rooms shape sound.')
    expect(byProductId.HOSTILE.summaryEn).toBe('Safe & sound')
    expect(byProductId.HOSTILE.descriptionEn).not.toContain('script')
    expect(byProductId['CBL_USB'].summaryEn).toBe('')
  })

  test('the display price is usdtPrice / 10000, as a number and as text', () => {
    expect(byProductId['H-100']).toMatchObject({ displayPrice: 129.99, displayPriceText: '129.99' })
    expect(byProductId['CBL_USB']).toMatchObject({ displayPrice: 15, displayPriceText: '15.00' })
    expect(byProductId.HOSTILE).toMatchObject({ displayPrice: 0.0005, displayPriceText: '0.0005' })
  })

  test('the card links to the product page and shows name, summary and price in its language', () => {
    const r = byProductId['H-100']
    expect(r.cardHtml.en).toBe(
      `<aside class="product-card" lang="en"><p class="product-card-name"><a href="${r.links.en}" hreflang="en">Studio Headphones</a></p>` +
        '<p class="product-card-summary">Closed-back studio headphones &amp; a three metre cable.</p>' +
        '<p class="product-card-price">Price: 129.99 USDT</p></aside>',
    )
    expect(r.cardHtml.zh).toContain(`<a href="${r.links.zh}" hreflang="zh">录音室耳机</a>`)
    expect(r.cardHtml.zh).toContain('价格：129.99 USDT')
    expect(byProductId['EAR-W'].cardHtml.en).toContain('Out of stock')
  })

  test('the card escapes hostile names, quotes and ampersands', () => {
    const { cardHtml } = byProductId.HOSTILE
    expect(cardHtml.en).toContain('&lt;script&gt;alert("x")&lt;/script&gt; Tom &amp; Jerry\'s "Best" Box')
    expect(cardHtml.zh).toContain('&lt;img src=x onerror=alert(1)&gt;猫和老鼠')
    for (const html of [cardHtml.en, cardHtml.zh]) {
      expect(html).not.toContain('<script')
      expect(html).not.toContain('<img')
      expect(html).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/)
    }
  })

  test('every card passes the content sanitizer unchanged', () => {
    for (const r of Object.values(byProductId))
      for (const html of [r.cardHtml.en, r.cardHtml.zh]) expect(sanitizeContentHtml(html)).toBe(html)
  })

  test('a card inserted into contentHtml is stored byte for byte', async () => {
    const token = await folio.token('blog:write')
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    const { cardHtml } = byProductId.HOSTILE
    const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
      token,
      body: publishablePost(categoryId, authorId, { contentHtml: `${E0_HTML}\n${cardHtml.en}\n${cardHtml.zh}`, status: 0 }),
    })
    expect(saved.status).toBe(200)
    expect(saved.body.data.contentHtml).toContain(cardHtml.en)
    expect(saved.body.data.contentHtml).toContain(cardHtml.zh)
  })
})
