import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { expectedVersion } from '../../http/if-match.ts'
import { IdParam, Language, LIMITS, pageQuery, paging, toInt } from '../../http/schema.ts'
import { autofixPost } from './autofix.ts'
import { checkDraft } from './check.ts'
import { PostSaveReq, SeoCheckReq } from './model.ts'
import { listPublicPosts, publicPostDetail } from './public.ts'
import { listRevisions, restoreRevision, revisionDetail } from './revisions.ts'
import { savePost } from './save.ts'
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
    .post(
      '/save',
      ({ body, caller, request }) => savePost(ctx, caller, { ...body, version: expectedVersion(request.headers, body.version) }),
      {
        body: PostSaveReq,
        scope: 'blog:write',
      },
    )
    .post('/:id/publish', ({ params, request }) => publishPost(ctx, Number(params.id), expectedVersion(request.headers)), {
      params: t.Object({ id: IdParam }),
      scope: 'blog:publish',
    })
    .post('/:id/autofix', ({ params, caller }) => autofixPost(ctx, Number(params.id), caller), {
      params: t.Object({ id: IdParam }),
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

const RevisionParams = t.Object({ id: IdParam, rev: IdParam })

/** A post's revisions (docs/agents.md, "Revisions"), scope `blog:write`; they hold drafts, so never cached. */
export const revisionRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'posts.revisions', prefix: '/api/admin/blog/posts' })
    .use(auth)
    .onAfterHandle(({ set }) => {
      Object.assign(set.headers, noStore)
    })
    .get('/:id/revisions', ({ params, query }) => listRevisions(ctx.db, Number(params.id), paging(query, 20)), {
      params: t.Object({ id: IdParam }),
      query: t.Object(pageQuery),
      scope: 'blog:write',
    })
    .get('/:id/revisions/:rev', ({ params }) => revisionDetail(ctx.db, Number(params.id), Number(params.rev)), {
      params: RevisionParams,
      scope: 'blog:write',
    })
    .post(
      '/:id/revisions/:rev/restore',
      ({ params, caller, request }) =>
        restoreRevision(ctx, caller, Number(params.id), Number(params.rev), expectedVersion(request.headers)),
      { params: RevisionParams, scope: 'blog:write' },
    )
