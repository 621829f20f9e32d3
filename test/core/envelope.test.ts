import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'

let folio: Folio
let token: string
let categoryId: number

beforeAll(async () => {
  folio = await startFolio()
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  ;({ categoryId } = await seedTaxonomy(folio, token))
})
afterAll(() => folio.dispose())

const postCount = () => {
  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  try {
    return (db.query('select count(*) as n from posts').get() as { n: number }).n
  } finally {
    db.close()
  }
}

describe('the envelope', () => {
  test('success is code 0000 with data', async () => {
    const res = await folio.call('GET', '/api/v1/blog/categories')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.body).toEqual({ code: '0000', message: 'success', data: expect.any(Array) })
  })

  test('an unknown route is a 404 in the envelope', async () => {
    const res = await folio.call('GET', '/api/v1/blog/nothing-here/at-all')
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('NOT_FOUND')
    expect(res.body.data).toBeNull()
  })

  test('a known path asked with another method is a 405 naming the methods it answers', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/api/v1/blog/tags', 'GET, HEAD'],
      ['PATCH', '/api/v1/blog/posts', 'GET, HEAD'],
      ['PUT', '/api/v1/blog/categories/save', 'POST'],
      ['POST', '/api/v1/blog/posts/some-slug', 'GET, HEAD'],
      ['GET', '/api/v1/blog/posts/12/publish', 'POST'],
    ] as const) {
      const res = await folio.call(method, path, { token })
      expect([method, path, res.status, res.headers.get('allow'), res.body?.code]).toEqual([method, path, 405, allow, 'METHOD_NOT_ALLOWED'])
    }
    expect((await folio.call('DELETE', '/api/v1/blog/posts/a/b/c')).status).toBe(404)
  })

  test('every response carries a request id', async () => {
    const res = await folio.call('GET', '/api/v1/blog/tags')
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('malformed bodies are 400s naming the field, and write nothing', () => {
  const save = (body: unknown) => folio.call('POST', '/api/v1/blog/posts/save', { token, body })
  const valid = () => publishablePost(categoryId, null)

  test('bad JSON', async () => {
    const before = postCount()
    const res = await save('{"language": "en", "title": ')
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('INVALID_BODY')
    expect(res.body.data.errors[0].field).toBe('body')
    expect(postCount()).toBe(before)
  })

  test.each([
    ['wrong type', { title: 42 }, 'title'],
    ['unknown enum value', { language: 'fr' }, 'language'],
    ['unknown status', { status: 7 }, 'status'],
    ['empty required field', { title: '   ' }, 'title'],
    ['missing required field', { categoryId: undefined }, 'categoryId'],
    ['non-positive id', { categoryId: 0 }, 'categoryId'],
    ['1 MB title', { title: 'x'.repeat(1024 * 1024) }, 'title'],
    ['1 MB summary', { summary: 'x'.repeat(1024 * 1024) }, 'summary'],
    ['too many key takeaways', { keyTakeaways: Array(21).fill('x') }, 'keyTakeaways'],
    ['faq block of the wrong shape', { faqBlocks: [{ question: 1 }] }, 'faqBlocks.0.question'],
    ['tag ids not numbers', { tagIds: ['a'] }, 'tagIds.0'],
    ['unknown category', { categoryId: 999999 }, 'categoryId'],
    ['unknown author', { authorId: 999999 }, 'authorId'],
    ['unknown tag', { tagIds: [999999] }, 'tagIds'],
    ['unparseable reviewedAt', { reviewedAt: 'last tuesday' }, 'reviewedAt'],
    ['script URL as cover', { coverImage: 'javascript:alert(1)' }, 'coverImage'],
    ['malformed relatedProductIds', { relatedProductIds: '1,abc' }, 'relatedProductIds'],
  ])('%s', async (_name, override, field) => {
    const before = postCount()
    const body = { ...valid(), ...override } as Record<string, unknown>
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key]
    const res = await save(body)
    expect(res.status).toBe(400)
    expect(res.body.code).not.toBe('0000')
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field)
    expect(res.text).not.toContain('    at ') // never a stack trace
    expect(postCount()).toBe(before)
  })

  test('a body far over any limit is refused before parsing', async () => {
    const res = await save(JSON.stringify({ ...valid(), contentHtml: 'x'.repeat(4 * 1024 * 1024) }))
    expect(res.status).toBe(400)
    expect(res.body.code).not.toBe('0000')
  })

  test('query values are checked and named', async () => {
    for (const [query, field] of [
      ['size=0', 'size'],
      ['size=-1', 'size'],
      ['size=101', 'size'],
      ['current=0', 'current'],
      ['current=abc', 'current'],
      ['language=fr', 'language'],
      ['categoryId=x', 'categoryId'],
      ['size=5&size=50', 'size'],
      ['language=en&language=zh', 'language'],
      ['keyword=%00', 'keyword'],
    ]) {
      const res = await folio.call('GET', `/api/v1/blog/posts?${query}`)
      expect(res.status).toBe(400)
      expect(res.body.data.errors[0].field).toBe(field)
    }
  })
})

describe('bodies without Content-Length', () => {
  const chunked = (bytes: Uint8Array, token?: string) => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 65536) controller.enqueue(bytes.subarray(i, i + 65536))
        controller.close()
      },
    })
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (token) headers.authorization = `Bearer ${token}`
    return fetch(`${folio.url}/api/v1/blog/categories/save`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit)
  }

  test('a chunked JSON body within the limit is read and handled', async () => {
    const res = await chunked(new TextEncoder().encode(JSON.stringify({ nameEn: 'Chunked category' })), token)
    expect(((await res.json()) as { code: string }).code).toBe('0000')
  })

  test('a chunked JSON body past the limit is refused in the envelope, not parsed', async () => {
    const res = await chunked(new TextEncoder().encode(JSON.stringify({ nameEn: 'x'.repeat(5 * 1024 * 1024) })), token)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
  })
})
