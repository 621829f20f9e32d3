import { and, eq, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { comments } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import type { EngagementRes, PublicCommentRes } from './model.ts'
import { COMMENT_STATUS } from './terms.ts'
import { threaded, toPublicComment } from './present.ts'
import { engageablePost } from './repo.ts'

// Prepared once per connection: a rebuild asks it of every post page (docs/benchmarks.md, "Rebuild CPU").
const approvedOf = preparedOnce((db) =>
  db
    .select()
    .from(comments)
    .where(and(eq(comments.postId, sql.placeholder('postId')), eq(comments.status, COMMENT_STATUS.approved)))
    .prepare(),
)

/** A post's approved comments in threaded order (each reply right after its parent): the API's and the post page's. */
export function approvedComments(db: Queryable, postId: number, language: Language): PublicCommentRes[] {
  const approved = approvedOf(db).all({ postId })
  return threaded(approved).map((row) => toPublicComment(row, language))
}

/** `GET posts/{id}/engagement`: the live counts and the approved comments in threaded order. */
export function engagementOf(db: Queryable, postId: number): EngagementRes {
  const post = engageablePost(db, postId)
  return { postId, clapCount: post.clapCount, commentCount: post.commentCount, comments: approvedComments(db, postId, post.language) }
}
