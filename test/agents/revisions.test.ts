import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { pageOf } from '../../src/http/schema.ts'
import { RevisionDetailRes as RevisionDetail, RevisionSummaryRes as RevisionSummary } from '../../src/modules/posts/model.ts'
import { F, publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

let folio: Folio
let editor: string // blog:write + blog:publish
let writer: string // blog:write only
let reader: string
let categoryId: number
let authorId: number
let tagId: number

beforeAll(async () => {
  folio = await startFolio({ REVISIONS_KEEP: '4' })
  editor = await folio.token('blog:write', 'blog:publish')
  writer = await folio.token('blog:write')
  reader = await folio.token('blog:read')
  ;({ categoryId, authorId } = await seedTaxonomy(folio, editor))
  const tag = await folio.call('POST', '/api/v1/blog/tags/save', {
    token: editor,
    body: { nameEn: 'Static', nameZh: '静态', language: 'all' },
  })
  tagId = tag.body.data.id
})
afterAll(() => folio.dispose())

const save = (body: Record<string, unknown>, token = editor) => folio.call('POST', '/api/v1/blog/posts/save', { token, body })
const revisions = (id: number, query = '', token = writer) => folio.call('GET', `/api/admin/blog/posts/${id}/revisions${query}`, { token })
const revision = (id: number, rev: number, token = writer) => folio.call('GET', `/api/admin/blog/posts/${id}/revisions/${rev}`, { token })
const restore = (id: number, rev: number, token = editor, headers: Record<string, string> = {}) =>
  folio.call('POST', `/api/admin/blog/posts/${id}/revisions/${rev}/restore`, { token, headers })

async function draftWithHistory() {
  const body = { ...publishablePost(categoryId, authorId), status: 0, tagIds: [tagId] }
  const created = (await save(body, writer)).body.data
  await save({ ...body, id: created.id, title: `${body.title} (second)`, tagIds: [] })
  const third = (
    await save({ ...body, id: created.id, title: `${body.title} (third)`, summary: `${body.summary} Third.`, tagIds: [] }, writer)
  ).body.data
  return { body, id: created.id as number, third }
}

describe('revisions', () => {
  test('every save that changes the post keeps a revision: who, when, what changed, scores; newest first, paged', async () => {
    const { id } = await draftWithHistory()
    const list = await revisions(id)
    expect(list.status).toBe(200)
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect(list.body.data.total).toBe(3)
    expect([...Value.Errors(pageOf(RevisionSummary, 'PageRevision'), list.body.data)]).toEqual([])
    const [third, second, first] = list.body.data.records
    expect(third).toMatchObject({ postId: id, version: 3, tokenName: 'test-blog:write', changedFields: ['title', 'summary'] })
    expect(second).toMatchObject({ version: 2, tokenName: 'test-blog:write+blog:publish', changedFields: ['title', 'tagIds'] })
    expect(first.version).toBe(1)
    expect(first.changedFields).toContain('contentHtml')
    expect(third.seoScore).toBeGreaterThan(0)
    expect(third.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    const page2 = await revisions(id, '?size=2&current=2')
    expect(page2.body.data).toMatchObject({ total: 3, size: 2, current: 2 })
    expect(page2.body.data.records.map((r: { version: number }) => r.version)).toEqual([1])
  })

  test('a save that changes no field keeps no revision', async () => {
    const { body, id } = await draftWithHistory()
    const stored = (await revision(id, 3)).body.data.fields
    await save({ ...body, ...stored, id })
    expect((await revisions(id)).body.data.total).toBe(3)
  })

  test('a revision shows its fields and a field-level diff against the current post', async () => {
    const { body, id } = await draftWithHistory()
    const res = await revision(id, 1)
    expect(res.body.data.fields).toMatchObject({ title: body.title, tagIds: [tagId], summary: body.summary })
    expect(res.body.data.currentVersion).toBe(3)
    expect([...Value.Errors(RevisionDetail, res.body.data)]).toEqual([])
    expect(res.body.data.diff).toEqual([
      { field: 'title', revision: body.title, current: `${body.title} (third)` },
      { field: 'tagIds', revision: [tagId], current: [] },
      { field: 'summary', revision: body.summary, current: `${body.summary} Third.` },
    ])
    expect((await revision(id, 3)).body.data.diff).toEqual([])
  })

  test('restore is a new save: a new version and revision with the old fields; If-Match applies', async () => {
    const { body, id } = await draftWithHistory()
    expect((await restore(id, 1, editor, { 'if-match': '"2"' })).status).toBe(412)
    const restored = await restore(id, 1, editor, { 'if-match': '"3"' })
    expect(restored.body.code).toBe('0000')
    expect(restored.body.data).toMatchObject({ title: body.title, summary: body.summary, version: 4, status: 0 })
    expect(restored.body.data.tags.map((t: { id: number }) => t.id)).toEqual([tagId])
    const latest = (await revisions(id)).body.data.records[0]
    expect(latest).toMatchObject({ version: 4, changedFields: ['title', 'tagIds', 'summary'] })
    expect((await revision(id, 1)).body.data.diff).toEqual([])
  })

  test('a published post stays published only if the restored content passes the gate', async () => {
    const body = { ...publishablePost(categoryId, authorId), status: 0 }
    const id = (await save({ ...body, contentHtml: `<p>${F}</p>` })).body.data.id
    await save({ ...body, id, status: 1 })
    const blocked = await restore(id, 1)
    expect(blocked.status).toBe(400)
    expect(blocked.body.code).toBe('BLOG_SEO_BLOCKED')
    expect(blocked.body.data.failedItems).toContain('thin_content')
    expect((await revisions(id)).body.data.total).toBe(2)
    const live = await folio.call('GET', `/api/v1/blog/posts/${body.slug}`)
    expect(live.body.data).toMatchObject({ status: 1, version: 2 })
    // Saving a published post needs blog:publish, through a restore too.
    expect((await restore(id, 2, writer)).status).toBe(403)
  })

  test('only the newest REVISIONS_KEEP revisions of a post are kept', async () => {
    const body = { ...publishablePost(categoryId, authorId), status: 0 }
    const id = (await save(body)).body.data.id
    for (let n = 2; n <= 6; n++) await save({ ...body, id, title: `${body.title} #${n}` })
    const list = (await revisions(id)).body.data
    expect(list.total).toBe(4)
    expect(list.records.map((r: { version: number }) => r.version)).toEqual([6, 5, 4, 3])
    expect((await revision(id, 1)).body.data.errors[0].field).toBe('rev')
  })

  test('scope blog:write; unknown posts and revisions are 400s naming them', async () => {
    const { id } = await draftWithHistory()
    expect((await revisions(id, '', reader)).status).toBe(403)
    expect((await revisions(id, '', '')).status).toBe(401)
    expect((await restore(id, 1, reader)).status).toBe(403)
    expect((await revisions(987654)).body.code).toBe('BLOG_NOT_FOUND')
    const missing = await revision(id, 99)
    expect(missing.status).toBe(400)
    expect(missing.body.data.errors[0].field).toBe('rev')
    expect((await revisions(id, '?size=500')).status).toBe(400)
    expect((await revision(id, 0)).body.data.errors[0].field).toBe('rev')
  })

  test('the OpenAPI document describes If-Match and Idempotency-Key on the post writes (revisions are admin API, outside it)', async () => {
    const doc = (await folio.call('GET', '/api/v1/blog/openapi.json')).body as unknown as { paths: Record<string, any> }
    for (const [path, conditional] of [
      ['/api/v1/blog/posts/save', true],
      ['/api/v1/blog/posts/{id}/publish', true],
      ['/api/v1/blog/posts/{id}/autofix', false],
    ] as const) {
      const op = doc.paths[path].post
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(conditional ? ['409', '412', '422'] : ['409', '422']))
      const names = op.parameters.map((p: { name: string }) => p.name.toLowerCase())
      expect(names).toContain('idempotency-key')
      if (conditional) expect(names).toContain('if-match')
    }
    expect(doc.paths['/api/admin/blog/posts/{id}/revisions']).toBeUndefined()
  })
})
