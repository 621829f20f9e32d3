import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable, Tx } from '../../db/client.ts'
import { comments, posts } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import type { CommentRes, ModerateReq } from './model.ts'
import { COMMENT_STATUS, type CommentStatus } from './terms.ts'
import { toCommentRes, type CommentRow } from './present.ts'
import { recountComments } from './repo.ts'

export interface CommentListQuery {
  status?: CommentStatus
  postId?: number
  current: number
  size: number
}

/** `GET /api/admin/blog/comments`: the moderation queue, newest first, with the admin-only fields. */
export function listComments(db: Queryable, query: CommentListQuery): Page<CommentRes> {
  const where = and(
    query.status === undefined ? undefined : eq(comments.status, query.status),
    query.postId ? eq(comments.postId, query.postId) : undefined,
  )
  const total = db.select({ n: count() }).from(comments).where(where).get()?.n ?? 0
  const rows = db
    .select({ comment: comments, title: posts.title, language: posts.language })
    .from(comments)
    .innerJoin(posts, eq(posts.id, comments.postId))
    .where(where)
    .orderBy(desc(comments.id))
    .limit(query.size)
    .offset((query.current - 1) * query.size)
    .all()
  return {
    total,
    size: query.size,
    current: query.current,
    records: rows.map((r) => toCommentRes(r.comment, { title: r.title, language: r.language })),
  }
}

/** A comment and every reply under it, at any depth. */
const threadOf = (tx: Tx, id: number): number[] =>
  tx
    .all<{ id: number }>(
      sql`with recursive thread(id) as (select ${id} union all select c.id from ${comments} c join thread on c.parent_id = thread.id) select id from thread`,
    )
    .map((r) => r.id)

function approve(tx: Tx, comment: CommentRow, now: string): void {
  if (comment.parentId) {
    const parent = tx.select({ status: comments.status }).from(comments).where(eq(comments.id, comment.parentId)).get()
    if (parent?.status !== COMMENT_STATUS.approved)
      throw invalidField('action', `the parent comment ${comment.parentId} is not approved; approve it first`)
  }
  tx.update(comments)
    .set({ status: COMMENT_STATUS.approved, moderatedAt: now, updatedAt: now })
    .where(and(eq(comments.id, comment.id), ne(comments.status, COMMENT_STATUS.approved)))
    .run()
}

/** Rejecting takes the replies along: an approved reply is never left hanging under a hidden comment. */
function reject(tx: Tx, comment: CommentRow, now: string): void {
  tx.update(comments)
    .set({ status: COMMENT_STATUS.rejected, moderatedAt: now, updatedAt: now })
    .where(and(inArray(comments.id, threadOf(tx, comment.id)), ne(comments.status, COMMENT_STATUS.rejected)))
    .run()
}

/** The reason a moderator's Spam decision records when the spam rules had given none. */
export const MODERATOR_SPAM = 'marked as spam by a moderator'

/**
 * `POST /api/admin/blog/comments/{id}/moderate`: approves or rejects a comment. The post's
 * `commentCount` changes in the same transaction, and an engagement change lets the pre-rendered
 * post pick the new count up on its schedule. Repeating a decision changes nothing.
 */
export async function moderateComment(ctx: Ctx, id: number, req: ModerateReq): Promise<CommentRes> {
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const comment = tx.select().from(comments).where(eq(comments.id, id)).get()
    if (!comment) throw new NotFound('comment', id)
    const now = formatTime(ctx.clock())
    if (req.action === 'approve') approve(tx, comment, now)
    else reject(tx, comment, now)
    if (req.action === 'spam' && !comment.spamReason)
      tx.update(comments).set({ spamReason: MODERATOR_SPAM }).where(eq(comments.id, id)).run()
    if (recountComments(tx, comment.postId)) record({ kind: 'engagement', postId: comment.postId })
    const post = tx.select({ title: posts.title, language: posts.language }).from(posts).where(eq(posts.id, comment.postId)).get()!
    const after = tx.select().from(comments).where(eq(comments.id, id)).get()!
    return toCommentRes(after, post)
  })
  return result
}
