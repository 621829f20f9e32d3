import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from 'elysia'
import * as S from '../../src/modules/publishing/openapi/schemas.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

let folio: Folio
let token: string
beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
})
afterAll(async () => {
  await folio?.dispose()
})

/** The spec's endpoints (§4.1–§4.3) in OpenAPI path syntax. */
const SPEC = {
  get: [
    '/posts/operate',
    '/posts/delete',
    '/resources/categories',
    '/posts',
    '/posts/{slug}',
    '/posts/{id}/engagement',
    '/categories',
    '/tags',
    '/authors',
    '/authors/{slug}',
    '/authors/{slug}/posts',
    '/publication-settings',
    '/rss.xml',
    '/sitemap.xml',
    '/robots.txt',
    '/openapi.json',
  ],
  post: [
    '/posts/check',
    '/posts/save',
    '/posts/{id}/publish',
    '/categories/save',
    '/tags/save',
    '/authors/save',
    '/media/upload',
    '/resources/search',
    '/posts/{id}/reactions',
    '/posts/{id}/comments',
    '/posts/{id}/autofix',
  ],
}

test('openapi.json is OpenAPI 3.0.3, description 1.0.0, and describes every endpoint of the spec', async () => {
  const response = await folio.call('GET', '/api/v1/blog/openapi.json')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
  const doc = response.body as unknown as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>> }
  expect(doc.openapi).toBe('3.0.3')
  expect(doc.info.version).toBe('1.0.0')
  for (const [method, paths] of Object.entries(SPEC))
    for (const path of paths) expect([path, method, !!doc.paths[`/api/v1/blog${path}`]?.[method]]).toEqual([path, method, true])
  // OpenAPI 3.0 has no `const` and no null type: the typebox conversion must have removed them.
  const text = response.text
  expect(text).not.toContain('"const"')
  expect(text).not.toContain('"type": "null"')
  for (const [, target] of text.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g)) expect(text).toContain(`"${target}": {`)
})

test('the API answers match the schemas the description publishes', async () => {
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  await folio.call('POST', '/api/v1/blog/tags/save', { token, body: { nameEn: 'Speed', language: 'en' } })
  const older = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  const published = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  const check = (schema: TSchema, value: unknown) =>
    expect([...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
  check(S.PublishRes, published)
  const detail = (await folio.call('GET', `/api/v1/blog/posts/${published.slug}`)).body.data
  check(S.PostRes, detail)
  expect(detail.relatedPosts.map((p: { id: number }) => p.id)).toContain(older.id)
  check(S.pageOf(S.PostCard), (await folio.call('GET', '/api/v1/blog/posts')).body.data)
  check(S.pageOf(S.PostCard), (await folio.call('GET', '/api/v1/blog/posts?keyword=static')).body.data)
  check(S.pageOf(S.PostCard), (await folio.call('GET', `/api/v1/blog/authors/${detail.authorProfile.slug}/posts`)).body.data)
  for (const [path, schema] of [
    ['/categories', S.CategoryRes],
    ['/tags', S.TagRes],
    ['/authors', S.AuthorRes],
  ] as const) {
    const items = (await folio.call('GET', `/api/v1/blog${path}`)).body.data
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) check(schema, item)
  }
  check(S.AuthorRes, (await folio.call('GET', `/api/v1/blog/authors/${detail.authorProfile.slug}`)).body.data)
  check(S.PublicationSettingsRes, (await folio.call('GET', '/api/v1/blog/publication-settings')).body.data)
})
