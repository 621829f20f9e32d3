import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { idsByProductId, importCatalogue } from './catalogue.ts'

let folio: Folio
let token: string
let ids: Record<string, number>
let post: (overrides?: Record<string, unknown>) => Record<string, unknown>

const save = (body: Record<string, unknown>) => folio.call('POST', '/api/v1/blog/posts/save', { token, body })

beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '100000' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  await importCatalogue(folio)
  ids = await idsByProductId(folio, token)
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  post = (overrides = {}) => publishablePost(categoryId, authorId, overrides)
})
afterAll(() => folio.dispose())

describe('relatedProductIds on post save', () => {
  test('naming a resource that does not exist is a 400 naming the field and the unknown ids; nothing is saved', async () => {
    const body = post({ relatedProductIds: `${ids['H-100']}, 999999,888888`, status: 0 })
    const res = await save(body)
    expect(res.status).toBe(400)
    expect(res.body.data.errors).toEqual([{ field: 'relatedProductIds', message: 'no resource(s) 999999, 888888' }])
    // The slug was not taken by a half-saved post.
    const again = await save({ ...body, relatedProductIds: String(ids['H-100']) })
    expect(again.status).toBe(200)
    expect(again.body.data.slug).toBe(body.slug)
  })

  test('an update naming an unknown resource leaves the stored post as it was', async () => {
    const saved = (await save(post({ relatedProductIds: String(ids['H-100']), status: 0 }))).body.data
    const res = await save({ ...post({ id: saved.id, slug: saved.slug, relatedProductIds: '424242' }) })
    expect(res.status).toBe(400)
    const unchanged = await save({ ...post({ id: saved.id, slug: saved.slug }) })
    expect(unchanged.body.data.relatedProductIds).toBe(String(ids['H-100']))
  })

  test('the response resolves them in list order for cards; offline resources stay listed but get no card', async () => {
    const list = [ids['EAR-W'], ids['AMP-OLD'], ids['H-100']].join(',')
    const res = await save(post({ relatedProductIds: list, status: 0 }))
    expect(res.status).toBe(200)
    expect(res.body.data.relatedProductIds).toBe(list)
    const related = res.body.data.relatedProducts
    expect(related.map((r: any) => r.productId)).toEqual(['EAR-W', 'H-100'])
    expect(related[1]).toMatchObject({
      id: ids['H-100'],
      nameEn: 'Studio Headphones',
      categoryName: 'Headphones',
      displayPriceText: '129.99',
    })
    expect(related[1].cardHtml.en).toContain(related[1].links.en)
  })

  test('the published post resolves them on the public detail, and list cards do not carry them', async () => {
    const published = await publishNewPost(folio, token, post({ relatedProductIds: `${ids['CBL_USB']},${ids['H-100']}` }))
    expect(published.relatedProducts.map((r: any) => r.productId)).toEqual(['CBL_USB', 'H-100'])
    const detail = await folio.call('GET', `/api/v1/blog/posts/${published.slug}?language=en`)
    expect(detail.status).toBe(200)
    expect(detail.body.data.relatedProducts.map((r: any) => r.id)).toEqual([ids['CBL_USB'], ids['H-100']])
    const list = await folio.call('GET', '/api/v1/blog/posts?size=100')
    const card = list.body.data.records.find((p: any) => p.id === published.id)
    expect(card.relatedProductIds).toBe(`${ids['CBL_USB']},${ids['H-100']}`)
    expect(card).not.toHaveProperty('relatedProducts')
  })

  test('a post without related products has an empty list', async () => {
    const res = await save(post({ status: 0 }))
    expect(res.body.data.relatedProducts).toEqual([])
  })
})
