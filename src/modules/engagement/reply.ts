import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import { comments, posts } from '../../db/schema/index.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import type { CommentOrigin } from './comments.ts'
import type { CommentRes } from './model.ts'
import { COMMENT_STATUS, ENGAGEMENT_LIMITS } from './terms.ts'
import { toCommentRes } from './present.ts'
import { recountComments } from './repo.ts'

/** Who replies: the signed-in person's name and email (a token caller names itself). */
export interface Replier {
  name: string
  email: string
}

/**
 * `POST /api/admin/blog/comments/{id}/reply`: the owner's answer to a reader, published approved
 * at once under the comment. Replying to a pending comment approves it too (answering it in public
 * is a decision to show it); a rejected one refuses, since its reply would hang under nothing.
 */
export async function replyToComment(
  ctx: Ctx,
  parentId: number,
  content: string,
  replier: Replier,
  origin: CommentOrigin,
): Promise<CommentRes> {
  const text = content.trim()
  if (!text) throw invalidField('content', 'a reply needs some text')
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const parent = tx.select().from(comments).where(eq(comments.id, parentId)).get()
    if (!parent) throw new NotFound('comment', parentId)
    if (parent.status === COMMENT_STATUS.rejected) throw invalidField('id', `comment ${parentId} is rejected; approve it before replying`)
    const now = formatTime(ctx.clock())
    if (parent.status === COMMENT_STATUS.pending)
      tx.update(comments).set({ status: COMMENT_STATUS.approved, moderatedAt: now, updatedAt: now }).where(eq(comments.id, parentId)).run()
    const reply = tx
      .insert(comments)
      .values({
        postId: parent.postId,
        parentId,
        authorName: replier.name.slice(0, ENGAGEMENT_LIMITS.authorName),
        authorEmail: replier.email,
        content: text,
        status: COMMENT_STATUS.approved,
        ip: origin.ip,
        userAgent: origin.userAgent.slice(0, ENGAGEMENT_LIMITS.userAgent),
        moderatedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get()
    record({ kind: 'comment', commentId: reply.id, postId: parent.postId })
    if (recountComments(tx, parent.postId)) record({ kind: 'engagement', postId: parent.postId })
    const post = tx.select({ title: posts.title, language: posts.language }).from(posts).where(eq(posts.id, parent.postId)).get()!
    return toCommentRes(reply, post)
  })
  return result
}
