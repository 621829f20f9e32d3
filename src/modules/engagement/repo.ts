import { and, count, eq, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
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
  const { approvedCount, storedCount, setCount } = countStatements(tx)
  const approved = approvedCount.get({ postId })?.n ?? 0
  if (storedCount.get({ postId })?.n === approved) return false
  setCount.run({ postId, n: approved })
  return true
}

/** Built once per connection: an import recounts every post it writes. */
const countStatements = preparedOnce((db) => ({
  approvedCount: db
    .select({ n: count() })
    .from(comments)
    .where(and(eq(comments.postId, sql.placeholder('postId')), eq(comments.status, COMMENT_STATUS.approved)))
    .prepare(),
  storedCount: db
    .select({ n: posts.commentCount })
    .from(posts)
    .where(eq(posts.id, sql.placeholder('postId')))
    .prepare(),
  setCount: db
    .update(posts)
    .set({ commentCount: sql.placeholder('n') as unknown as number })
    .where(eq(posts.id, sql.placeholder('postId')))
    .prepare(),
}))
