import { and, count, eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { comments, posts } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import type { PostRow } from '../posts/repo.ts'
import { readable } from '../posts/visibility.ts'
import { COMMENT_STATUS } from './terms.ts'

/** The published post readers engage with; anything else (unknown, draft, offline, deleted) is a 400. */
export function engageablePost(db: Queryable, postId: number): PostRow {
  const post = db
    .select()
    .from(posts)
    .where(and(eq(posts.id, postId), readable))
    .get()
  if (!post) throw new NotFound('published post', postId)
  return post
}

/**
 * Sets the post's denormalized `commentCount` from the approved comments; recounting instead of
 * adding keeps it right whatever a moderation touched. Returns whether the count changed.
 */
export function recountComments(tx: Queryable, postId: number): boolean {
  const approved =
    tx
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.postId, postId), eq(comments.status, COMMENT_STATUS.approved)))
      .get()?.n ?? 0
  const before = tx.select({ n: posts.commentCount }).from(posts).where(eq(posts.id, postId)).get()?.n
  if (before === approved) return false
  tx.update(posts).set({ commentCount: approved }).where(eq(posts.id, postId)).run()
  return true
}
