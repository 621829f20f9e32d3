import { and, count, desc, eq, gte, lt, lte, ne, or } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import type { Ctx } from '../../context.ts'
import { comments } from '../../db/schema/index.ts'
import { invalidField } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import type { CommentReq, PublicCommentRes } from './model.ts'
import { COMMENT_STATUS, ENGAGEMENT_LIMITS } from './terms.ts'
import { toPublicComment } from './present.ts'
import { engageablePost } from './repo.ts'
import { SPAM_RULES, spamReason } from './spam.ts'

/** Who sent a comment, kept for moderation only. */
export interface CommentOrigin {
  ip: string
  userAgent: string
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/

function emailOf(value: string | null | undefined): string {
  const email = value?.trim() ?? ''
  if (email && !EMAIL.test(email)) throw invalidField('authorEmail', 'expected an email address like name@example.org')
  return email
}

const minutesBefore = (now: Date, minutes: number) => formatTime(new Date(now.getTime() - minutes * 60_000))

/** Rejected spam past SPAM_RULES.keptDays, or beyond the newest keptRows, is deleted (the spam_reason marks it). */
function pruneSpam(tx: Queryable, now: Date): void {
  const spam = and(eq(comments.status, COMMENT_STATUS.rejected), ne(comments.spamReason, ''))
  const newest = tx
    .select({ id: comments.id })
    .from(comments)
    .where(spam)
    .orderBy(desc(comments.id))
    .limit(1)
    .offset(SPAM_RULES.keptRows)
    .get()
  const old = lt(comments.createdAt, minutesBefore(now, SPAM_RULES.keptDays * 24 * 60))
  tx.delete(comments)
    .where(and(spam, newest ? or(old, lte(comments.id, newest.id)) : old))
    .run()
}

/**
 * `POST posts/{id}/comments`: a reader's comment on a published post, pending moderation, or
 * rejected at once with an admin-only spam reason. The per-IP facts are read inside the
 * write-locked transaction, so parallel posts from one IP cannot all slip under the limit.
 */
export async function postComment(ctx: Ctx, postId: number, req: CommentReq, origin: CommentOrigin): Promise<PublicCommentRes> {
  const authorEmail = emailOf(req.authorEmail)
  const authorName = req.authorName.trim()
  const content = req.content.trim()
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const post = engageablePost(tx, postId)
    if (req.parentId) {
      const parent = tx
        .select({ id: comments.id })
        .from(comments)
        .where(and(eq(comments.id, req.parentId), eq(comments.postId, postId), eq(comments.status, COMMENT_STATUS.approved)))
        .get()
      if (!parent) throw invalidField('parentId', `no approved comment ${req.parentId} on post ${postId}`)
    }
    const now = ctx.clock()
    const fromIp = (minutes: number, ...more: ReturnType<typeof eq>[]) =>
      tx
        .select({ n: count() })
        .from(comments)
        .where(and(eq(comments.ip, origin.ip), gte(comments.createdAt, minutesBefore(now, minutes)), ...more))
        .get()?.n ?? 0
    const reason = spamReason({
      authorName,
      content,
      recentFromIp: fromIp(SPAM_RULES.perIpWindowMinutes),
      repeatedFromIp: fromIp(SPAM_RULES.repeatWindowHours * 60, eq(comments.content, content)) > 0,
    })
    const stamp = formatTime(now)
    const row = tx
      .insert(comments)
      .values({
        postId,
        parentId: req.parentId ?? null,
        authorName,
        authorEmail,
        content,
        status: reason ? COMMENT_STATUS.rejected : COMMENT_STATUS.pending,
        spamReason: reason ?? '',
        ip: origin.ip,
        userAgent: origin.userAgent.slice(0, ENGAGEMENT_LIMITS.userAgent),
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning()
      .get()
    if (reason) pruneSpam(tx, now)
    // Owners hear of it (`blog.comment.created`) from the same transaction.
    record({ kind: 'comment', commentId: row.id, postId })
    return toPublicComment(row, post.language)
  })
  return result
}
