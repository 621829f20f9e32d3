import { t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { IdParam, Language, LIMITS, pageQuery, paging, toInt } from '../../http/schema.ts'
import { LIST_SORTS, LIST_STATES, listAdminPosts } from './admin-list.ts'
import { toWriterPostRes } from './present.ts'
import { livePost } from './repo.ts'
import { deletePost, takeOffline } from './status.ts'

const Score = t.Optional(t.String({ pattern: '^(100|[1-9]?[0-9])$', description: 'a score from 0 to 100' }))

const AdminListQuery = t.Object({
  language: t.Optional(Language),
  state: t.Optional(t.Union(LIST_STATES.map((s) => t.Literal(s)))),
  categoryId: t.Optional(IdParam),
  tagId: t.Optional(IdParam),
  authorId: t.Optional(IdParam),
  minScore: Score,
  maxScore: Score,
  keyword: t.Optional(t.String({ maxLength: LIMITS.name })),
  sort: t.Optional(t.Union(LIST_SORTS.map((s) => t.Literal(s)))),
  order: t.Optional(t.Union([t.Literal('asc'), t.Literal('desc')])),
  ...pageQuery,
})

const score = (value: string | undefined) => (value === undefined ? undefined : Number(value))

/**
 * The console's reads of posts in every state (docs/editor.md), scope `blog:write` like the
 * revisions beside them: drafts are private, so never cached and never in the public contract.
 * Taking offline and deleting are the spec's `operate`/`delete` verbs as POSTs with the same
 * scope: those GETs stay token-only (a cookie rides along on any navigation).
 */
export const adminPostRoutes = (ctx: Ctx) =>
  adminRoutes('posts.admin', '/api/admin/blog/posts')
    .get(
      '/',
      ({ query }) =>
        listAdminPosts(ctx.db, {
          language: query.language,
          state: query.state,
          categoryId: toInt(query.categoryId, 0),
          tagId: toInt(query.tagId, 0),
          authorId: toInt(query.authorId, 0),
          minScore: score(query.minScore),
          maxScore: score(query.maxScore),
          keyword: query.keyword,
          sort: query.sort ?? 'updated',
          order: query.order ?? 'desc',
          ...paging(query, 20),
        }),
      { query: AdminListQuery, scope: 'blog:write' },
    )
    .get('/:id', ({ params }) => toWriterPostRes(ctx.db, livePost(ctx.db, Number(params.id))), {
      params: t.Object({ id: IdParam }),
      scope: 'blog:write',
    })
    .post(
      '/:id/offline',
      async ({ params }) => {
        await takeOffline(ctx, Number(params.id))
        return true
      },
      { params: t.Object({ id: IdParam }), scope: 'blog:publish' },
    )
    .post(
      '/:id/delete',
      async ({ params }) => {
        await deletePost(ctx, Number(params.id))
        return true
      },
      { params: t.Object({ id: IdParam }), scope: 'blog:publish' },
    )
