import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { comments, posts } from '../../db/schema/index.ts'
import { postUrl } from '../../shared/language.ts'
import { eventTime } from './post-facts.ts'
import { COMMENT_CREATED, type CommentCreatedPayload } from './events.ts'

/** The `blog.comment.created` body of a comment just written in `tx`. */
export function commentCreated(
  tx: Tx,
  siteUrl: string,
  change: { commentId: number; postId: number },
  eventId: string,
  occurredAt: Date,
): CommentCreatedPayload {
  const comment = tx.select().from(comments).where(eq(comments.id, change.commentId)).get()!
  const post = tx.select().from(posts).where(eq(posts.id, change.postId)).get()!
  return {
    id: eventId,
    event: COMMENT_CREATED,
    occurredAt: eventTime(occurredAt),
    comment: {
      id: comment.id,
      parentId: comment.parentId,
      authorName: comment.authorName,
      content: comment.content,
      status: comment.status,
      spamReason: comment.spamReason,
    },
    post: { id: post.id, language: post.language, slug: post.slug, title: post.title, url: postUrl(siteUrl, post.language, post.slug) },
    moderationUrl: `${siteUrl}/admin/comments`,
  }
}
