import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { callOf } from '../../http/call.ts'
import { contract } from '../../http/contract.ts'
import { IdParam, paging, toInt } from '../../http/schema.ts'
import { postComment } from './comments.ts'
import { engagementOf } from './engagement.ts'
import { CommentListQuery, CommentReq, EngagementRes, ModerateReq, PublicCommentRes, ReactionReq, ReplyReq } from './model.ts'
import type { CommentStatus } from './terms.ts'
import { listComments, moderateComment } from './moderation.ts'
import { addReaction } from './reactions.ts'
import { replyToComment } from './reply.ts'

const PostParams = t.Object({ id: IdParam })

/**
 * Anonymous engagement (spec §4.2), under the posts prefix with the same `:id` parameter name
 * the post detail route uses. Counts are live, so caches must revalidate; reader text is plain
 * text in JSON, and `nosniff` keeps a browser from ever reading it as HTML.
 */
export const engagementRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'engagement.public', prefix: '/api/v1/blog/posts' })
    .onAfterHandle(({ set }) => {
      set.headers['cache-control'] = 'no-cache'
      set.headers['x-content-type-options'] = 'nosniff'
    })
    .get('/:id/engagement', ({ params }) => engagementOf(ctx.db, Number(params.id)), {
      params: PostParams,
      ...contract({
        operationId: 'getEngagement',
        summary: 'Claps and approved comments (always live)',
        tag: 'engagement',
        data: EngagementRes,
      }),
    })
    // The shell has already checked the Idempotency-Key's syntax (http/idempotency.ts).
    .post(
      '/:id/reactions',
      ({ params, body, request }) => addReaction(ctx, Number(params.id), body, request.headers.get('idempotency-key') ?? ''),
      {
        params: PostParams,
        body: ReactionReq,
        ...contract({ operationId: 'addReaction', summary: 'Add claps', tag: 'engagement', data: EngagementRes }),
      },
    )
    .post(
      '/:id/comments',
      ({ params, body, request }) =>
        postComment(ctx, Number(params.id), body, { ip: callOf(request).ip, userAgent: request.headers.get('user-agent') ?? '' }),
      {
        params: PostParams,
        body: CommentReq,
        ...contract({
          operationId: 'postComment',
          summary: 'Submit a comment (pending moderation)',
          tag: 'engagement',
          data: PublicCommentRes,
        }),
      },
    )

/** Comment moderation in the admin area (operations.md), scope `blog:admin`. Its records hold emails and IPs: never cached. */
export const moderationRoutes = (ctx: Ctx) =>
  adminRoutes('engagement.admin', '/api/admin/blog/comments')
    .get(
      '/',
      ({ query }) =>
        listComments(ctx.db, {
          status: query.status === undefined ? undefined : (Number(query.status) as CommentStatus),
          postId: toInt(query.postId, 0),
          ...paging(query, 20),
        }),
      { query: CommentListQuery, scope: 'blog:admin' },
    )
    .post('/:id/moderate', ({ params, body }) => moderateComment(ctx, Number(params.id), body), {
      params: t.Object({ id: IdParam }),
      body: ModerateReq,
      scope: 'blog:admin',
    })
    .post(
      '/:id/reply',
      ({ params, body, request }) => {
        const call = callOf(request)
        const session = call.caller?.session
        const replier = session ? { name: session.name, email: session.email } : { name: body.authorName ?? call.caller!.name, email: '' }
        return replyToComment(ctx, Number(params.id), body.content, replier, {
          ip: call.ip,
          userAgent: request.headers.get('user-agent') ?? '',
        })
      },
      { params: t.Object({ id: IdParam }), body: ReplyReq, scope: 'blog:admin' },
    )
