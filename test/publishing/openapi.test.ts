import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from 'elysia'
import { AuthorRes } from '../../src/modules/authors/model.ts'
import { PostPage, PostRes, PublishRes } from '../../src/modules/posts/model.ts'
import { PublicationSettings } from '../../src/modules/settings/settings.ts'
import { CategoryRes, TagRes } from '../../src/modules/taxonomy/model.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { pythonTool, run } from '../support/tools.ts'

const ROOT = resolve(import.meta.dir, '..', '..')
const BIN = join(ROOT, 'node_modules', '.bin')

let folio: Folio
let token: string
let work: string
let docFile: string
let doc: OpenApi
let text: string

interface OpenApi {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; responses: Record<string, unknown> }>>
  components: { schemas: Record<string, unknown> }
}

beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const response = await folio.call('GET', '/api/v1/blog/openapi.json')
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
  text = response.text
  doc = JSON.parse(text) as OpenApi
  work = mkdtempSync(join(tmpdir(), 'folio-openapi-'))
  docFile = join(work, 'openapi.json')
  writeFileSync(docFile, text)
})
afterAll(async () => {
  await folio?.dispose()
  if (work) rmSync(work, { recursive: true, force: true })
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
  ],
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))

test('openapi.json is OpenAPI 3.0.3, description 1.0.0, and describes every endpoint of the spec', () => {
  expect(doc.openapi).toBe('3.0.3')
  expect(doc.info.version).toBe('1.0.0')
  for (const [method, paths] of Object.entries(SPEC))
    for (const path of paths) expect([path, method, !!doc.paths[`/api/v1/blog${path}`]?.[method]]).toEqual([path, method, true])
  // OpenAPI 3.0 has no `const` and no null type; integers are integers, never Elysia's numeric strings.
  expect(text).not.toContain('"const"')
  expect(text).not.toContain('"type": "null"')
  expect(text).not.toContain('"format": "integer"')
  for (const [, target] of text.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g))
    expect(doc.components.schemas[target!]).toBeDefined()
})

test('every operation declares its contract: a unique operationId, a tag, the envelope and its errors', () => {
  const ids = operations().map(({ op }) => op.operationId)
  expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true)
  expect(new Set(ids).size).toBe(ids.length)
  for (const { path, method, op } of operations()) {
    expect([path, method, op.tags]).not.toEqual([path, method, ['undocumented']])
    expect([path, method, Object.keys(op.responses)]).toEqual([path, method, expect.arrayContaining(['200', '400', '500'])])
  }
  // The spec's component names, used by reference.
  for (const name of [
    'Result',
    'ErrorResult',
    'BlogPostSaveReq',
    'BlogSeoCheckReq',
    'BlogPostRes',
    'BlogFaqBlock',
    'BlogTocItemRes',
    'BlogSeoCheckRes',
    'BlogSeoCheckItemRes',
    'BlogCategoryReq',
    'BlogCategoryRes',
    'BlogTagReq',
    'BlogTagRes',
    'BlogAuthorReq',
    'BlogAuthorRes',
    'BlogCommentReq',
    'BlogPublicCommentRes',
    'BlogReactionReq',
    'BlogEngagementRes',
    'BlogResourceSearchReq',
    'BlogResourceRes',
    'BlogResourceCategoryRes',
    'PageBlogPostRes',
    'PageBlogResourceRes',
    'BlogPublicationSettingsRes',
  ])
    expect([name, text.includes(`"$ref": "#/components/schemas/${name}"`)]).toEqual([name, true])
})

test('the limits the server enforces are stated: lengths, ranges, patterns, enums', () => {
  const schemas = doc.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>> }>
  expect(schemas.BlogReactionReq!.properties.reactionKey).toMatchObject({ type: 'string', enum: ['clap'] })
  expect(schemas.BlogReactionReq!.properties.count).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 })
  expect(schemas.BlogReactionReq!.properties.clientKey).toMatchObject({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' })
  expect(schemas.BlogPostSaveReq!.properties.contentHtml).toMatchObject({ type: 'string', maxLength: 500_000 })
  expect(schemas.BlogPostSaveReq!.properties.status).toMatchObject({ type: 'integer', enum: [0, 1, 2, null], nullable: true })
  expect(schemas.BlogPostSaveReq!.properties.categoryId).toMatchObject({ type: 'integer', minimum: 1 })
  const list = doc.paths['/api/v1/blog/posts']!.get as unknown as { parameters: { name: string; schema: unknown }[] }
  expect(list.parameters.find((p) => p.name === 'size')!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 })
  const operate = doc.paths['/api/v1/blog/posts/operate']!.get as unknown as { parameters: { name: string; schema: unknown }[] }
  expect(operate.parameters.find((p) => p.name === 'status')!.schema).toMatchObject({ type: 'integer', enum: [1, 2] })
})

test('the error answers type their data, and the policy rejection is part of every 200', () => {
  const save = doc.paths['/api/v1/blog/posts/save']!.post!
  expect(save.responses['200']).toMatchObject({
    content: {
      'application/json': {
        schema: { oneOf: [{ allOf: [{ $ref: '#/components/schemas/Result' }, {}] }, { $ref: '#/components/schemas/PolicyRejection' }] },
      },
    },
  })
  for (const status of ['400', '401', '403', '500']) expect(save.responses[status]).toBeDefined()
  const rss = doc.paths['/api/v1/blog/rss.xml']!.get!
  expect(Object.keys((rss.responses['200'] as { content: object }).content)).toEqual(['application/xml', 'application/json'])
  expect(rss.responses['400']).toBeDefined()
  const named = JSON.stringify(doc.components)
  for (const field of ['"failedItems"', '"errors"', '"requiredScope"', '"retryAfterSeconds"', '"requestId"']) expect(named).toContain(field)
})

test('openapi-spec-validator and redocly lint find no error', async () => {
  const validator = await run([await pythonTool('openapi-spec-validator'), docFile])
  expect(validator.stdout + validator.stderr).toContain(': OK')
  expect(validator.code).toBe(0)
  const lint = await run([join(BIN, 'redocly'), 'lint', '--config', join(ROOT, 'redocly.yaml'), docFile], { cwd: ROOT })
  expect(lint.stdout + lint.stderr).toContain('Your API description is valid')
  expect(lint.stdout + lint.stderr).not.toMatch(/\berror\b/)
  expect(lint.code).toBe(0)
}, 600_000)

test('a client generated from the document by openapi-typescript publishes a post with openapi-fetch, with no casts', async () => {
  const clientDir = join(ROOT, 'test', 'publishing', 'client')
  const gen = await run([join(BIN, 'openapi-typescript'), docFile, '-o', join(clientDir, 'openapi.gen.ts')], { cwd: ROOT })
  expect(gen.code).toBe(0)
  const tsc = await run([join(BIN, 'tsc'), '--noEmit', '-p', join(clientDir, 'tsconfig.json')], { cwd: ROOT })
  expect(tsc.stdout + tsc.stderr).toBe('')
  expect(tsc.code).toBe(0)
  const client = await run([process.execPath, join(clientDir, 'publish-post.ts'), folio.url, token], { cwd: ROOT })
  expect(client.stderr).toBe('')
  expect(client.code).toBe(0)
  const published = JSON.parse(client.stdout) as { id: number; slug: string; status: number; sitemapUpdated: boolean }
  expect(published).toMatchObject({ status: 1, sitemapUpdated: true })
  expect((await folio.call('GET', `/api/v1/blog/posts/${published.slug}`)).body.data.id).toBe(published.id)
}, 120_000)

test('the API answers match the schemas the description publishes', async () => {
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  await folio.call('POST', '/api/v1/blog/tags/save', { token, body: { nameEn: 'Speed', language: 'en' } })
  const older = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  const published = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  const check = (schema: TSchema, value: unknown) =>
    expect([...Value.Errors(schema, value)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
  check(PublishRes, published)
  const detail = (await folio.call('GET', `/api/v1/blog/posts/${published.slug}`)).body.data
  check(PostRes, detail)
  expect(detail.relatedPosts.map((p: { id: number }) => p.id)).toContain(older.id)
  check(PostPage, (await folio.call('GET', '/api/v1/blog/posts')).body.data)
  check(PostPage, (await folio.call('GET', '/api/v1/blog/posts?keyword=static')).body.data)
  check(PostPage, (await folio.call('GET', `/api/v1/blog/authors/${detail.authorProfile.slug}/posts`)).body.data)
  for (const [path, schema] of [
    ['/categories', CategoryRes],
    ['/tags', TagRes],
    ['/authors', AuthorRes],
  ] as const) {
    const items = (await folio.call('GET', `/api/v1/blog${path}`)).body.data
    expect(items.length).toBeGreaterThan(0)
    for (const item of items) check(schema, item)
  }
  check(AuthorRes, (await folio.call('GET', `/api/v1/blog/authors/${detail.authorProfile.slug}`)).body.data)
  check(PublicationSettings, (await folio.call('GET', '/api/v1/blog/publication-settings')).body.data)
})
