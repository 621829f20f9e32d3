import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { IdParam, Language, LIMITS, pageQuery, paging, toInt } from '../../http/schema.ts'
import { checkDraft } from './check.ts'
import { PostSaveReq, PreviewReq, ScheduleReq, SeoCheckReq } from './model.ts'
import { createPreview, PREVIEW_PATH, readPreview } from './preview.ts'
import { listPublicPosts, publicPostDetail } from './public.ts'
import { savePost } from './save.ts'
import { schedulePost } from './schedule.ts'
import { deletePost, operatePost, publishPost } from './status.ts'

const PREFIX = '/api/v1/blog/posts'

const ListQuery = t.Object({
  language: t.Optional(Language),
  categoryId: t.Optional(IdParam),
  authorId: t.Optional(IdParam),
  tagId: t.Optional(IdParam),
  keyword: t.Optional(t.String({ maxLength: LIMITS.name })),
  ...pageQuery,
})

const noStore = { 'cache-control': 'no-store' }

/** Anonymous reads of posts (spec §4.2). The router needs one parameter name per segment, so the slug travels as `:id`. */
export const publicPostRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'posts.public', prefix: PREFIX })
    .get(
      '/',
      ({ query }) =>
        listPublicPosts(ctx.db, {
          language: query.language,
          keyword: query.keyword,
          categoryId: toInt(query.categoryId, 0),
          authorId: toInt(query.authorId, 0),
          tagId: toInt(query.tagId, 0),
          ...paging(query, 10),
        }),
      { query: ListQuery },
    )
    .get(
      '/:id',
      ({ params, query }) => {
        const language = query.language ?? 'en'
        const detail = publicPostDetail(ctx.db, params.id, language)
        if ('post' in detail) return detail.post
        return new Response(null, {
          status: 301,
          headers: { location: `${PREFIX}/${encodeURIComponent(detail.movedTo)}?language=${language}` },
        })
      },
      { params: t.Object({ id: t.String({ minLength: 1, maxLength: LIMITS.slug }) }), query: t.Object({ language: t.Optional(Language) }) },
    )

/** Token-protected post writes (spec §4.1). */
export const writePostRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'posts.write', prefix: PREFIX })
    .use(auth)
    .post('/check', ({ body }) => checkDraft(ctx, body), { body: SeoCheckReq, scope: 'blog:write' })
    .post('/save', ({ body, caller }) => savePost(ctx, caller, body), { body: PostSaveReq, scope: 'blog:write' })
    .post('/:id/publish', ({ params }) => publishPost(ctx, Number(params.id)), { params: t.Object({ id: IdParam }), scope: 'blog:publish' })
    .post('/:id/schedule', ({ params, body }) => schedulePost(ctx, Number(params.id), body), {
      params: t.Object({ id: IdParam }),
      body: ScheduleReq,
      scope: 'blog:publish',
    })
    .post('/:id/preview', ({ params, body }) => createPreview(ctx, Number(params.id), body ?? {}), {
      params: t.Object({ id: IdParam }),
      body: t.Optional(PreviewReq),
      scope: 'blog:write',
    })
    .get(
      '/operate',
      ({ query, set }) => {
        Object.assign(set.headers, noStore)
        return operatePost(ctx, Number(query.id), query.status === '1' ? 1 : 2)
      },
      { query: t.Object({ id: IdParam, status: t.Union([t.Literal('1'), t.Literal('2')]) }), scope: 'blog:publish' },
    )
    .get(
      '/delete',
      ({ query, set }) => {
        Object.assign(set.headers, noStore)
        return deletePost(ctx, Number(query.id))
      },
      { query: t.Object({ id: IdParam }), scope: 'blog:publish' },
    )

/**
 * Anyone holding a preview token reads the post's stored state (docs/agents.md "Previews"):
 * never stored by a cache, never indexed, and never pre-rendered (no artifact path maps here).
 */
export const previewRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'posts.preview', prefix: PREVIEW_PATH }).get(
    '/:token',
    ({ params, set }) => {
      Object.assign(set.headers, noStore, { 'x-robots-tag': 'noindex', 'referrer-policy': 'no-referrer' })
      return readPreview(ctx, params.token)
    },
    { params: t.Object({ token: t.String({ maxLength: 200 }) }) },
  )
