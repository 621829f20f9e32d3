import { and, eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { comments } from '../../db/schema/index.ts'
import { COMMENT_STATUS, type EngagementRes } from './model.ts'
import { threaded, toPublicComment } from './present.ts'
import { engageablePost } from './repo.ts'

/** `GET posts/{id}/engagement`: the live counts and the approved comments in threaded order. */
export function engagementOf(db: Queryable, postId: number): EngagementRes {
  const post = engageablePost(db, postId)
  const approved = db
    .select()
    .from(comments)
    .where(and(eq(comments.postId, postId), eq(comments.status, COMMENT_STATUS.approved)))
    .all()
  return {
    postId,
    clapCount: post.clapCount,
    commentCount: post.commentCount,
    comments: threaded(approved).map((row) => toPublicComment(row, post.language)),
  }
}
