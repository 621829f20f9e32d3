import { t, type TSchema } from 'elysia'
import { LIMITS } from '../../../http/schema.ts'
import { AuthorReq } from '../../authors/model.ts'
import { PostSaveReq, PreviewReq, ScheduleReq, SeoCheckReq } from '../../posts/model.ts'
import { CategoryReq, TagReq } from '../../taxonomy/model.ts'
import * as S from './schemas.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * typebox speaks JSON Schema; OpenAPI 3.0 wants `nullable` instead of a null branch and `enum`
 * instead of `const`. Symbols (typebox's kinds) vanish in the JSON round trip.
 */
export function toOas(schema: unknown): Json {
  const plain = JSON.parse(JSON.stringify(schema)) as Json
  const convert = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(convert)
    if (!node || typeof node !== 'object') return node
    const { anyOf, const: constant, $id: _id, ...rest } = node
    let out: { [key: string]: Json } = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, convert(v)]))
    const typeOf = (v: Json) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)
    if (constant !== undefined) out = { ...out, type: typeOf(constant), enum: [constant] }
    if (Array.isArray(anyOf)) {
      const branches = anyOf.filter((b) => !(b && typeof b === 'object' && !Array.isArray(b) && b.type === 'null'))
      const literals = branches.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? b.const : undefined))
      if (branches.length && literals.every((l) => l !== undefined)) out = { ...out, type: typeOf(literals[0]!), enum: literals as Json[] }
      else if (branches.length === 1) out = { ...out, ...(convert(branches[0]!) as object) }
      else out.anyOf = branches.map(convert)
      if (branches.length < anyOf.length) out.nullable = true
    }
    return out
  }
  return convert(plain)
}

interface Operation {
  summary: string
  tag: string
  scope?: string
  params?: Param[]
  body?: TSchema
  multipart?: boolean
  /** `data` of the success envelope; a raw document when `raw` names its media type. */
  data?: Json | TSchema
  raw?: string
  noStore?: boolean
  redirect?: boolean
}

type Param = { name: string; in: 'query' | 'path'; required?: boolean; schema: Json; description?: string }

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` })
const query = (name: string, schema: Json, description?: string, required = false): Param => ({
  name,
  in: 'query',
  required,
  schema,
  ...(description ? { description } : {}),
})
const path = (name: string, schema: Json, description?: string): Param => ({
  name,
  in: 'path',
  required: true,
  schema,
  ...(description ? { description } : {}),
})

const id: Json = { type: 'integer', format: 'int64', minimum: 1 }
const lang = (values: string[], fallback?: string): Json => ({ type: 'string', enum: values, ...(fallback ? { default: fallback } : {}) })
const page = (size: number): Param[] => [
  query('current', { type: 'integer', minimum: 1, maximum: 999_999, default: 1 }, 'Page number.'),
  query('size', { type: 'integer', minimum: 1, maximum: LIMITS.maxPageSize, default: size }, 'Page size.'),
]
const isSchema = (value: Json | TSchema): value is TSchema =>
  typeof value === 'object' && value !== null && Object.getOwnPropertySymbols(value).length > 0

const COMPONENTS: Record<string, TSchema> = {
  BlogPostRes: S.PostRes,
  BlogWriterPostRes: S.WriterPostRes,
  BlogPreviewRes: S.PreviewRes,
  BlogPostCard: S.PostCard,
  BlogPublishRes: S.PublishRes,
  PageBlogPostRes: S.pageOf(S.PostCard),
  BlogCategoryRes: S.CategoryRes,
  BlogTagRes: S.TagRes,
  BlogAuthorRes: S.AuthorRes,
  BlogSeoCheckRes: S.SeoCheckRes,
  BlogEngagementRes: S.EngagementRes,
  BlogPublicCommentRes: S.PublicCommentRes,
  BlogResourceRes: S.ResourceRes,
  PageBlogResourceRes: S.pageOf(S.ResourceRes),
  BlogPublicationSettingsRes: S.PublicationSettingsRes,
  ErrorResult: S.ErrorResult,
  BlogPostSaveReq: PostSaveReq,
  BlogSeoCheckReq: SeoCheckReq,
  BlogScheduleReq: ScheduleReq,
  BlogPreviewReq: PreviewReq,
  BlogCategoryReq: CategoryReq,
  BlogTagReq: TagReq,
  BlogAuthorReq: AuthorReq,
  BlogCommentReq: S.CommentReq,
  BlogReactionReq: S.ReactionReq,
  BlogResourceSearchReq: S.ResourceSearchReq,
}

const componentName = (schema: TSchema) => Object.entries(COMPONENTS).find(([, s]) => s === schema)?.[0]
const schemaJson = (schema: Json | TSchema): Json =>
  isSchema(schema) ? (componentName(schema) ? ref(componentName(schema)!) : toOas(schema)) : schema

const error = (description: string): Json => ({ description, content: { 'application/json': { schema: ref('ErrorResult') } } })

function operation(op: Operation): Json {
  const envelope = (data: Json): Json => ({
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: { code: { type: 'string', example: '0000' }, message: { type: 'string' }, data },
  })
  const ok: Json = op.raw
    ? { description: 'Success', content: { [op.raw]: { schema: op.raw === 'application/json' ? { type: 'object' } : { type: 'string' } } } }
    : {
        description: 'Success (`code` 0000), or a policy rejection (non-0000 `code`)',
        content: { 'application/json': { schema: envelope(schemaJson(op.data ?? {})) } },
      }
  const responses: Record<string, Json> = { '200': ok }
  if (!op.raw) {
    responses['400'] = error('Validation or business error (the fields at fault in `data.errors`)')
    if (op.scope) {
      responses['401'] = error('Missing or invalid API token')
      responses['403'] = error(`The token lacks the scope ${op.scope}`)
    }
  }
  if (op.redirect)
    responses['301'] = { description: 'Old slug: `Location` names the current one', headers: { Location: { schema: { type: 'string' } } } }
  if (!op.scope && !op.noStore) responses['304'] = { description: 'Not modified (`If-None-Match` / `If-Modified-Since`)' }
  return {
    summary: op.summary,
    tags: [op.tag],
    ...(op.scope
      ? { security: [{ bearerAuth: [] }, { apiToken: [] }], 'x-required-scope': op.scope }
      : { security: [{}, { bearerAuth: [] }, { apiToken: [] }] }),
    ...(op.params ? { parameters: op.params as unknown as Json } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaJson(op.body) } } } }
      : op.multipart
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
                },
              },
            },
          }
        : {}),
    responses,
  }
}

const B = '/api/v1/blog'
const slugParam = path('slug', { type: 'string', maxLength: LIMITS.slug })
const detailLanguage = query('language', lang(['en', 'zh'], 'en'))

/** The spec's endpoints (§4) as OpenAPI 3.0.3, description version 1.0.0 (§9). */
export function openapiDocument(): Json {
  const paths: Record<string, Record<string, Operation>> = {
    [`${B}/posts/check`]: {
      post: { summary: 'SEO check of a draft (not saved)', tag: 'posts', scope: 'blog:write', body: SeoCheckReq, data: S.SeoCheckRes },
    },
    [`${B}/posts/save`]: {
      post: {
        summary: 'Create (empty id) or update a post; status=1 also needs blog:publish',
        tag: 'posts',
        scope: 'blog:write',
        body: PostSaveReq,
        data: S.WriterPostRes,
      },
    },
    [`${B}/posts/{id}/publish`]: {
      post: {
        summary: 'Publish after re-running the SEO check',
        tag: 'posts',
        scope: 'blog:publish',
        params: [path('id', id)],
        data: S.PublishRes,
      },
    },
    [`${B}/posts/{id}/schedule`]: {
      post: {
        summary: 'Schedule publishing (publishAt) and/or taking offline (unpublishAt), UTC YYYY-MM-DD HH:mm:ss; null cancels',
        tag: 'posts',
        scope: 'blog:publish',
        params: [path('id', id)],
        body: ScheduleReq,
        data: S.WriterPostRes,
      },
    },
    [`${B}/posts/{id}/preview`]: {
      post: {
        summary: 'A signed, expiring preview URL of the stored post (expiresIn seconds, default 3600, at most 604800)',
        tag: 'posts',
        scope: 'blog:write',
        params: [path('id', id)],
        body: PreviewReq,
        data: S.PreviewRes,
      },
    },
    [`${B}/previews/{token}`]: {
      get: {
        summary: 'The stored post a preview token names, draft or not (Cache-Control: no-store, X-Robots-Tag: noindex)',
        tag: 'public',
        params: [path('token', { type: 'string', maxLength: 200 })],
        data: S.PostRes,
        noStore: true,
      },
    },
    [`${B}/posts/operate`]: {
      get: {
        summary: 'Publish (1) or take offline (2); never cached',
        tag: 'posts',
        scope: 'blog:publish',
        params: [query('id', id, undefined, true), query('status', { type: 'integer', enum: [1, 2] }, undefined, true)],
        data: { type: 'boolean' },
        noStore: true,
      },
    },
    [`${B}/posts/delete`]: {
      get: {
        summary: 'Delete (removed from public discovery); never cached',
        tag: 'posts',
        scope: 'blog:publish',
        params: [query('id', id, undefined, true)],
        data: { type: 'boolean' },
        noStore: true,
      },
    },
    [`${B}/posts`]: {
      get: {
        summary: 'Published, discoverable posts, newest first',
        tag: 'public',
        params: [
          query('language', lang(['en', 'zh'])),
          query('categoryId', id),
          query('authorId', id),
          query('tagId', id),
          query('keyword', { type: 'string', maxLength: LIMITS.name }, 'Searches title, summary and slug.'),
          ...page(10),
        ],
        data: COMPONENTS.PageBlogPostRes,
      },
    },
    [`${B}/posts/{slug}`]: {
      get: {
        summary: 'A published post; an old slug answers 301',
        tag: 'public',
        params: [slugParam, detailLanguage],
        data: S.PostRes,
        redirect: true,
      },
    },
    [`${B}/posts/{id}/engagement`]: {
      get: {
        summary: 'Claps and approved comments (always live)',
        tag: 'engagement',
        params: [path('id', id)],
        data: S.EngagementRes,
      },
    },
    [`${B}/posts/{id}/reactions`]: {
      post: { summary: 'Add claps', tag: 'engagement', params: [path('id', id)], body: S.ReactionReq, data: S.EngagementRes },
    },
    [`${B}/posts/{id}/comments`]: {
      post: {
        summary: 'Submit a comment (pending moderation)',
        tag: 'engagement',
        params: [path('id', id)],
        body: S.CommentReq,
        data: S.PublicCommentRes,
      },
    },
    [`${B}/categories`]: { get: { summary: 'Enabled categories', tag: 'public', data: t.Array(S.CategoryRes) } },
    [`${B}/categories/save`]: {
      post: { summary: 'Create or update a category', tag: 'taxonomy', scope: 'blog:write', body: CategoryReq, data: S.CategoryRes },
    },
    [`${B}/tags`]: {
      get: { summary: 'Enabled tags', tag: 'public', params: [query('language', lang(['en', 'zh', 'all']))], data: t.Array(S.TagRes) },
    },
    [`${B}/tags/save`]: { post: { summary: 'Create or update a tag', tag: 'taxonomy', scope: 'blog:write', body: TagReq, data: S.TagRes } },
    [`${B}/authors`]: {
      get: { summary: 'Enabled authors', tag: 'public', params: [query('language', lang(['en', 'zh']))], data: t.Array(S.AuthorRes) },
    },
    [`${B}/authors/save`]: {
      post: { summary: 'Create or update an author', tag: 'authors', scope: 'blog:write', body: AuthorReq, data: S.AuthorRes },
    },
    [`${B}/authors/{slug}`]: {
      get: { summary: 'An enabled author', tag: 'public', params: [slugParam, detailLanguage], data: S.AuthorRes },
    },
    [`${B}/authors/{slug}/posts`]: {
      get: {
        summary: "An enabled author's published posts",
        tag: 'public',
        params: [slugParam, detailLanguage, ...page(12)],
        data: COMPONENTS.PageBlogPostRes,
      },
    },
    [`${B}/publication-settings`]: { get: { summary: 'Public publication settings', tag: 'public', data: S.PublicationSettingsRes } },
    [`${B}/media/upload`]: {
      post: {
        summary: 'Upload an image; returns its public URL',
        tag: 'media',
        scope: 'blog:write',
        multipart: true,
        data: { type: 'string', format: 'uri' },
      },
    },
    [`${B}/resources/categories`]: {
      get: {
        summary: 'Business resource categories (a tree)',
        tag: 'resources',
        scope: 'blog:read',
        data: { type: 'array', items: ref('BlogResourceCategoryRes') },
      },
    },
    [`${B}/resources/search`]: {
      post: {
        summary: 'Search business resources',
        tag: 'resources',
        scope: 'blog:read',
        body: S.ResourceSearchReq,
        data: COMPONENTS.PageBlogResourceRes,
      },
    },
    [`${B}/rss.xml`]: { get: { summary: 'RSS 2.0 feed of one language', tag: 'feeds', params: [detailLanguage], raw: 'application/xml' } },
    [`${B}/sitemap.xml`]: { get: { summary: 'Sitemap (an index of shards past 50,000 URLs)', tag: 'feeds', raw: 'application/xml' } },
    [`${B}/sitemap/{shard}.xml`]: {
      get: { summary: 'One sitemap shard', tag: 'feeds', params: [path('shard', { type: 'integer', minimum: 1 })], raw: 'application/xml' },
    },
    [`${B}/robots.txt`]: { get: { summary: 'Robots directives', tag: 'feeds', raw: 'text/plain' } },
    [`${B}/openapi.json`]: { get: { summary: 'This description', tag: 'feeds', raw: 'application/json' } },
  }
  const schemas: Record<string, Json> = Object.fromEntries(Object.entries(COMPONENTS).map(([name, schema]) => [name, toOas(schema)]))
  schemas.BlogResourceCategoryRes = {
    type: 'object',
    required: ['id', 'code', 'nameEn', 'nameZh', 'iconUrl', 'children'],
    properties: {
      id: id,
      code: { type: 'string' },
      nameEn: { type: 'string' },
      nameZh: { type: 'string' },
      iconUrl: { type: 'string' },
      children: { type: 'array', items: ref('BlogResourceCategoryRes') },
    },
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Folio blog publishing API',
      version: '1.0.0',
      description:
        'Anonymous public reads, token-protected writes (Authorization: Bearer or X-API-Token), feeds. Every JSON answer is the envelope {code, message, data}.',
    },
    servers: [{ url: '/' }],
    paths: Object.fromEntries(
      Object.entries(paths).map(([p, ops]) => [p, Object.fromEntries(Object.entries(ops).map(([m, op]) => [m, operation(op)]))]),
    ),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, apiToken: { type: 'apiKey', in: 'header', name: 'X-API-Token' } },
      schemas,
    },
  }
}
