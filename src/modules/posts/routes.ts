import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import { WARNING_HEADER } from '../../http/envelope.ts'
import { expectedVersion, IfMatchHeaders } from '../../http/if-match.ts'
import { IdParam, Language, LIMITS, pageQuery, paging, toInt } from '../../http/schema.ts'
import { autofixPost } from './autofix.ts'
import { checkDraft } from './check.ts'
import {
  AutofixRes,
  PostPage,
  PostRes,
  PostSaveReq,
  PREVIEW_SECONDS,
  PreviewReq,
  PreviewRes,
  PublishRes,
  ScheduleReq,
  SeoCheckReq,
  SeoCheckRes,
  WriterPostRes,
} from './model.ts'
import { createPreview, PREVIEW_PATH, readPreview } from './preview.ts'
import { listPublicPosts, publicPostDetail } from './public.ts'
import { listRevisions, restoreRevision, revisionDetail } from './revisions.ts'
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

/**
 * A committed change whose public artifacts could not all be refreshed (a full or read-only
 * CACHE_DIR) is still a success, but never a silent one: the answer carries `Folio-Warning`
 * (and the envelope's message), the render is retried, and `/healthz` shows the backlog.
 */
/** A conditional write (If-Match or the body's `version`) whose version is stale (docs/agents.md). */
const VERSION_REFUSAL = { 412: 'VERSION_CONFLICT: the post changed since that version; `data` holds currentVersion and updatedTime' }
/** Routes that run the SEO check on its pool of threads (docs/seo-check.md). */
const SEO_REFUSAL = {
  503: 'SEO_BUSY: every SEO check thread is busy and the queue is full; or SEO_WORKER_FAILED: the check timed out or its thread died (`data.reason`). Nothing was saved; retry after `Retry-After`',
}

export function warnStale(set: { headers: Record<string, unknown> }, failed: number): void {
  if (failed) set.headers[WARNING_HEADER] = `${failed} public artifact(s) could not be updated yet; retrying (see GET /healthz)`
}

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
      {
        query: ListQuery,
        ...contract({ operationId: 'listPosts', summary: 'Published, discoverable posts, newest first', tag: 'public', data: PostPage }),
      },
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
      {
        params: t.Object({ id: t.String({ minLength: 1, maxLength: LIMITS.slug }) }),
        query: t.Object({ language: t.Optional(Language) }),
        ...contract({
          operationId: 'getPost',
          summary: 'A published post by slug; an old slug answers 301',
          tag: 'public',
          data: PostRes,
          redirect: true,
          pathParams: { id: 'slug' },
        }),
      },
    )

/** Token-protected post writes (spec §4.1). */
export const writePostRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'posts.write', prefix: PREFIX })
    .use(auth)
    .post('/check', ({ body }) => checkDraft(ctx, body), {
      body: SeoCheckReq,
      scope: 'blog:write',
      ...contract({
        operationId: 'checkPost',
        summary: 'SEO check of a draft (not saved)',
        tag: 'posts',
        data: SeoCheckRes,
        refusals: SEO_REFUSAL,
      }),
    })
    .post(
      '/save',
      ({ body, caller, request }) => savePost(ctx, caller, { ...body, version: expectedVersion(request.headers, body.version) }),
      {
        body: PostSaveReq,
        headers: IfMatchHeaders,
        scope: 'blog:write',
        ...contract({
          operationId: 'savePost',
          summary: 'Create (no id) or update a post',
          description:
            'A save whose result is published (`status` 1) also needs `blog:publish` and passes the SEO gate. `If-Match: "<version>"` (or the body\'s `version`) makes it conditional.',
          tag: 'posts',
          data: WriterPostRes,
          refusals: { ...VERSION_REFUSAL, ...SEO_REFUSAL },
        }),
      },
    )
    .post(
      '/:id/publish',
      async ({ params, request, set }) => {
        const { artifactsFailed, ...answer } = await publishPost(ctx, Number(params.id), expectedVersion(request.headers))
        warnStale(set, artifactsFailed)
        return answer
      },
      {
        params: t.Object({ id: IdParam }),
        headers: IfMatchHeaders,
        scope: 'blog:publish',
        ...contract({
          operationId: 'publishPost',
          summary: 'Publish after re-running the SEO check',
          tag: 'posts',
          data: PublishRes,
          refusals: { ...VERSION_REFUSAL, ...SEO_REFUSAL },
        }),
      },
    )
    .post('/:id/autofix', ({ params, caller }) => autofixPost(ctx, Number(params.id), caller), {
      params: t.Object({ id: IdParam }),
      scope: 'blog:write',
      ...contract({
        operationId: 'autofixPost',
        summary: "Apply the check's auto-fixes to the stored post and save it",
        tag: 'posts',
        data: AutofixRes,
        refusals: SEO_REFUSAL,
      }),
    })
    .post('/:id/schedule', ({ params, body }) => schedulePost(ctx, Number(params.id), body), {
      params: t.Object({ id: IdParam }),
      body: ScheduleReq,
      scope: 'blog:publish',
      ...contract({
        operationId: 'schedulePost',
        summary: 'Schedule publishing (publishAt) and/or taking offline (unpublishAt); null cancels',
        description:
          'Times are UTC `YYYY-MM-DD HH:mm:ss` and must be in the future; a due publish passes the same SEO gate as publishPost.',
        tag: 'posts',
        data: WriterPostRes,
      }),
    })
    .post('/:id/preview', ({ params, body }) => createPreview(ctx, Number(params.id), body ?? {}), {
      params: t.Object({ id: IdParam }),
      body: t.Optional(PreviewReq),
      scope: 'blog:write',
      ...contract({
        operationId: 'createPreview',
        summary: 'A signed, expiring preview URL of the stored post, draft or not',
        description: `\`expiresIn\` seconds: default ${PREVIEW_SECONDS.default}, at most ${PREVIEW_SECONDS.max}.`,
        tag: 'posts',
        data: PreviewRes,
      }),
    })
    .get(
      '/operate',
      async ({ query, set }) => {
        Object.assign(set.headers, noStore)
        warnStale(set, (await operatePost(ctx, Number(query.id), query.status === '1' ? 1 : 2)).artifactsFailed)
        return true
      },
      {
        query: t.Object({
          id: IdParam,
          status: t.String({
            pattern: '^[12]$',
            description: '1 (publish) or 2 (take offline)',
            'x-oas': { type: 'integer', enum: [1, 2] },
          }),
        }),
        scope: 'blog:publish',
        ...contract({
          operationId: 'operatePost',
          summary: 'Publish (1) or take offline (2)',
          tag: 'posts',
          data: t.Boolean(),
          noStore: true,
          refusals: SEO_REFUSAL,
        }),
      },
    )
    .get(
      '/delete',
      async ({ query, set }) => {
        Object.assign(set.headers, noStore)
        warnStale(set, (await deletePost(ctx, Number(query.id))).artifactsFailed)
        return true
      },
      {
        query: t.Object({ id: IdParam }),
        scope: 'blog:publish',
        ...contract({
          operationId: 'deletePost',
          summary: 'Delete a post (removed from public discovery)',
          tag: 'posts',
          data: t.Boolean(),
          noStore: true,
        }),
      },
    )

const RevisionParams = t.Object({ id: IdParam, rev: IdParam })

/** A post's revisions (docs/agents.md, "Revisions"), scope `blog:write`; they hold drafts, so never cached. */
export const revisionRoutes = (ctx: Ctx) =>
  adminRoutes('posts.revisions', '/api/admin/blog/posts')
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
    {
      params: t.Object({ token: t.String({ maxLength: 200 }) }),
      ...contract({
        operationId: 'readPreview',
        summary: 'The stored post a preview token names, draft or not',
        description:
          'Answered `Cache-Control: no-store` and `X-Robots-Tag: noindex`. A token that is not valid is refused 400 `PREVIEW_TOKEN_INVALID`, an expired one 400 `PREVIEW_TOKEN_EXPIRED`.',
        tag: 'public',
        data: PostRes,
        noStore: true,
      }),
    },
  )
