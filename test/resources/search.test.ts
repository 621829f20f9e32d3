import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFolio, type Folio } from '../support/folio.ts'
import { idsByProductId, importCatalogue } from './catalogue.ts'

let folio: Folio
let read: string
let ids: Record<string, number>

const search = (body: unknown, token = read) => folio.call('POST', '/api/v1/blog/resources/search', { token, body })
const productIds = async (body: Record<string, unknown>) => {
  const res = await search(body)
  expect(res.status).toBe(200)
  return (res.body.data.records as { productId: string }[]).map((r) => r.productId).sort()
}

beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '100000' })
  read = await folio.token('blog:read')
  await importCatalogue(folio)
  ids = await idsByProductId(folio, read)
})
afterAll(() => folio.dispose())

describe('scopes', () => {
  test('both endpoints answer 401 without a token and 403 with a token lacking blog:read', async () => {
    const write = await folio.token('blog:write', 'blog:publish')
    for (const [method, path] of [
      ['GET', '/api/v1/blog/resources/categories'],
      ['POST', '/api/v1/blog/resources/search'],
    ] as const) {
      const anonymous = await folio.call(method, path, { body: method === 'POST' ? {} : undefined })
      expect(anonymous.status).toBe(401)
      expect(anonymous.body.code).toBe('UNAUTHORIZED')
      const bogus = await folio.call(method, path, { token: 'not-a-token', body: method === 'POST' ? {} : undefined })
      expect(bogus.status).toBe(401)
      const lacking = await folio.call(method, path, { token: write, body: method === 'POST' ? {} : undefined })
      expect(lacking.status).toBe(403)
      expect(lacking.body.data.requiredScope).toBe('blog:read')
    }
  })

  test('an unauthorized caller learns nothing about a bad body: 401/403 before 400', async () => {
    const write = await folio.token('blog:write')
    expect((await search({ size: 0 }, '')).status).toBe(401)
    expect((await search({ size: 0 }, write)).status).toBe(403)
  })
})

describe('GET resources/categories', () => {
  test('is the tree with children, each level in sort order', async () => {
    const res = await folio.call('GET', '/api/v1/blog/resources/categories', { token: read })
    expect(res.status).toBe(200)
    const shape = (nodes: any[]): unknown => nodes.map((n) => ({ code: n.code, children: shape(n.children) }))
    expect(shape(res.body.data)).toEqual([
      { code: 'books', children: [] },
      {
        code: 'gear',
        children: [
          { code: 'audio', children: [{ code: 'headphones', children: [] }] },
          { code: 'cables', children: [] },
        ],
      },
    ])
    const gear = res.body.data[1]
    expect(gear).toMatchObject({ nameEn: 'Gear', nameZh: '器材', iconUrl: 'https://images.example.org/gear.svg' })
    expect(Object.keys(gear).sort()).toEqual(['children', 'code', 'iconUrl', 'id', 'nameEn', 'nameZh'])
    expect(typeof gear.id).toBe('number')
  })
})

describe('POST resources/search filters', () => {
  test('status defaults to 1; explicit 2 and 3 find offline and out-of-stock resources; null means the default', async () => {
    expect(await productIds({})).toEqual(['BK-HIFI', 'CBL_USB', 'H-100', 'HOSTILE', 'PCT-LIKE'])
    expect(await productIds({ status: null })).toEqual(['BK-HIFI', 'CBL_USB', 'H-100', 'HOSTILE', 'PCT-LIKE'])
    expect(await productIds({ status: 2 })).toEqual(['AMP-OLD'])
    expect(await productIds({ status: 3 })).toEqual(['EAR-W'])
    const bad = await search({ status: 4 })
    expect(bad.status).toBe(400)
    expect(bad.body.data.errors[0].field).toBe('status')
  })

  test('keywords match names in both languages, the source id and the internal id', async () => {
    expect(await productIds({ keywords: 'studio' })).toEqual(['H-100'])
    expect(await productIds({ keywords: 'STUDIO' })).toEqual(['H-100'])
    expect(await productIds({ keywords: '录音室' })).toEqual(['H-100'])
    expect(await productIds({ keywords: '数据线' })).toEqual(['CBL_USB'])
    expect(await productIds({ keywords: 'BK-HI' })).toEqual(['BK-HIFI'])
    // The internal id matches exactly; no other resource's text contains this number.
    const id = ids['BK-HIFI']!
    expect(await productIds({ keywords: `  ${id}  ` })).toContain('BK-HIFI')
  })

  test('keywords match the descriptions as text in both languages, not their markup', async () => {
    expect(await productIds({ keywords: 'closed-back' })).toEqual(['H-100'])
    expect(await productIds({ keywords: 'three metre' })).toEqual(['H-100'])
    expect(await productIds({ keywords: '监听' })).toEqual(['H-100'])
    expect(await productIds({ keywords: 'listening rooms' })).toEqual(['BK-HIFI'])
    expect(await productIds({ keywords: 'strong' })).toEqual([])
    expect(await productIds({ keywords: 'steal' })).toEqual([]) // the script was dropped at import
  })

  test('every keyword must match, and % and _ are taken literally', async () => {
    expect(await productIds({ keywords: 'studio headphones' })).toEqual(['H-100'])
    expect(await productIds({ keywords: 'studio earbuds' })).toEqual([])
    expect(await productIds({ keywords: '%' })).toEqual(['PCT-LIKE'])
    expect(await productIds({ keywords: '_' })).toEqual(['CBL_USB'])
    expect(await productIds({ keywords: "'; drop table resources; --" })).toEqual([])
    const tooMany = await search({ keywords: 'a b c d e f g h i' })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.data.errors[0].field).toBe('keywords')
  })

  test('categoryCode includes every descendant category', async () => {
    expect(await productIds({ categoryCode: 'gear' })).toEqual(['CBL_USB', 'H-100', 'PCT-LIKE'])
    expect(await productIds({ categoryCode: 'audio' })).toEqual(['H-100', 'PCT-LIKE'])
    expect(await productIds({ categoryCode: 'audio', status: 2 })).toEqual(['AMP-OLD'])
    expect(await productIds({ categoryCode: 'headphones', status: 3 })).toEqual(['EAR-W'])
    expect(await productIds({ categoryCode: 'cables' })).toEqual(['CBL_USB'])
    expect(await productIds({ categoryCode: 'gear', keywords: 'wool' })).toEqual(['PCT-LIKE'])
    const unknown = await search({ categoryCode: 'no-such-code' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.data.errors[0].field).toBe('categoryCode')
  })

  test('sourceType narrows', async () => {
    expect(await productIds({ sourceType: 2 })).toEqual(['BK-HIFI'])
    expect(await productIds({ sourceType: 9 })).toEqual([])
    expect((await search({ sourceType: -1 })).body.data.errors[0].field).toBe('sourceType')
  })
})

describe('paging', () => {
  test('defaults to current 1 and size 10 without a body or with an empty one', async () => {
    for (const body of [undefined, {}]) {
      const res = await search(body)
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ total: 5, size: 10, current: 1 })
      expect(res.body.data.records).toHaveLength(5)
    }
  })

  test('pages in id order with the total of all matches', async () => {
    const first = await search({ size: 2, current: 1 })
    const third = await search({ size: 2, current: 3 })
    const beyond = await search({ size: 2, current: 4 })
    expect(first.body.data).toMatchObject({ total: 5, size: 2, current: 1 })
    expect(first.body.data.records.map((r: any) => r.productId)).toEqual(['H-100', 'CBL_USB'])
    expect(third.body.data.records.map((r: any) => r.productId)).toEqual(['PCT-LIKE'])
    expect(beyond.body.data).toMatchObject({ total: 5, records: [] })
    expect((await search({ size: 100 })).status).toBe(200)
  })

  test('non-positive, oversized or non-integer paging is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ size: 0 }, 'size'],
      [{ size: -5 }, 'size'],
      [{ size: 101 }, 'size'],
      [{ size: 2.5 }, 'size'],
      [{ current: 0 }, 'current'],
      [{ current: -1 }, 'current'],
      [{ current: 'two' }, 'current'],
    ] as const) {
      const res = await search(body)
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400])
      expect(res.body.code).toBe('VALIDATION_FAILED')
      expect(res.body.data.errors.map((e: any) => e.field)).toEqual([field])
    }
  })

  test('a malformed body is a 400, never a 500', async () => {
    const res = await folio.call('POST', '/api/v1/blog/resources/search', {
      token: read,
      body: '{"size": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
  })
})
