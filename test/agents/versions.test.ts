import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type ApiResponse, type Folio } from '../support/folio.ts'

let folio: Folio
let token: string
let categoryId: number
let authorId: number

beforeAll(async () => {
  folio = await startFolio()
  token = await folio.token('blog:write', 'blog:publish')
  ;({ categoryId, authorId } = await seedTaxonomy(folio, token))
})
afterAll(() => folio.dispose())

const save = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  folio.call('POST', '/api/v1/blog/posts/save', { token, body, headers })
const publish = (id: number, headers: Record<string, string> = {}) =>
  folio.call('POST', `/api/v1/blog/posts/${id}/publish`, { token, headers })

async function draft() {
  const body = { ...publishablePost(categoryId, authorId), status: 0 }
  const res = await save(body)
  expect(res.body.code).toBe('0000')
  return { body, post: res.body.data }
}

function expectConflict(res: ApiResponse, current: { version: number; updatedTime: string }) {
  expect(res.status).toBe(412)
  expect(res.body.code).toBe('VERSION_CONFLICT')
  expect(res.body.data).toEqual({ currentVersion: current.version, updatedTime: current.updatedTime })
}

describe('version and If-Match', () => {
  test('every change of the stored post moves its version on; a publish that changes nothing does not', async () => {
    const { body, post } = await draft()
    expect(post.version).toBe(1)
    const edited = await save({ ...body, id: post.id, summary: `${body.summary} More.` })
    expect(edited.body.data.version).toBe(2)
    const published = await publish(post.id)
    expect(published.body.data.version).toBe(3)
    expect((await publish(post.id)).body.data.version).toBe(3)
    const detail = await folio.call('GET', `/api/v1/blog/posts/${post.slug}`)
    expect(detail.body.data.version).toBe(3)
    await folio.call('GET', `/api/v1/blog/posts/operate?id=${post.id}&status=2`, { token })
    expect((await save({ ...body, id: post.id, status: 2 })).body.data.version).toBe(5)
  })

  test('a save based on an old version is 412 VERSION_CONFLICT and changes nothing; the current one goes through', async () => {
    const { body, post } = await draft()
    const current = (await save({ ...body, id: post.id, title: `${body.title} v2` })).body.data
    for (const stale of [{ headers: { 'if-match': '"1"' } }, { body: { version: 1 } }]) {
      const res = await save({ ...body, id: post.id, title: `${body.title} lost`, ...stale.body }, stale.headers)
      expectConflict(res, current)
    }
    const ok = await save({ ...body, id: post.id, title: `${body.title} v3` }, { 'if-match': `"${current.version}"` })
    expect(ok.body.data).toMatchObject({ title: `${body.title} v3`, version: current.version + 1 })
  })

  test('two saves with the same If-Match: exactly one goes through, the other is 412', async () => {
    const { body, post } = await draft()
    const [a, b] = await Promise.all(
      ['A', 'B'].map((editor) => save({ ...body, id: post.id, title: `${body.title} by ${editor}` }, { 'if-match': '"1"' })),
    )
    const statuses = [a!.status, b!.status].sort()
    expect(statuses).toEqual([200, 412])
    const winner = a!.status === 200 ? a! : b!
    const loser = a!.status === 200 ? b! : a!
    expect(loser.body.data.currentVersion).toBe(2)
    const stored = await save({ ...body, id: post.id, title: winner.body.data.title }, { 'if-match': '"2"' })
    expect(stored.body.data.version).toBe(3)
  })

  test('publish with If-Match publishes only that version', async () => {
    const { body, post } = await draft()
    const current = (await save({ ...body, id: post.id, summary: `${body.summary} Again.` })).body.data
    expectConflict(await publish(post.id, { 'if-match': '"1"' }), current)
    expect((await folio.call('GET', `/api/v1/blog/posts/${post.slug}`)).status).toBe(400)
    const ok = await publish(post.id, { 'if-match': `"${current.version}"` })
    expect(ok.body.data).toMatchObject({ status: 1, version: current.version + 1 })
  })

  test('without If-Match, the last save wins as before', async () => {
    const { body, post } = await draft()
    await save({ ...body, id: post.id, title: `${body.title} first` })
    expect((await save({ ...body, id: post.id, title: `${body.title} second` })).body.data.title).toBe(`${body.title} second`)
  })

  test('a malformed If-Match, a version without id, or two versions that disagree are 400s naming the field', async () => {
    const { body, post } = await draft()
    const cases: [Record<string, unknown>, Record<string, string>, string][] = [
      [{ ...body, id: post.id }, { 'if-match': '"abc"' }, 'If-Match'],
      [{ ...body, id: post.id }, { 'if-match': '*' }, 'If-Match'],
      [{ ...body, title: `${body.title} new`, slug: '', version: 1 }, {}, 'version'],
      [{ ...body, id: post.id, version: 2 }, { 'if-match': '"1"' }, 'version'],
      [{ ...body, id: post.id, version: 0 }, {}, 'version'],
    ]
    for (const [sent, headers, field] of cases) {
      const res = await save(sent, headers)
      expect(res.status).toBe(400)
      // Header names are case-insensitive; the schema check names the header in lower case.
      expect(res.body.data.errors.map((e: { field: string }) => e.field.toLowerCase())).toContain(field.toLowerCase())
    }
    expect((await save({ ...body, id: post.id })).body.data.version).toBe(2)
  })
})
