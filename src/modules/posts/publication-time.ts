import { eq, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts } from '../../db/schema/index.ts'

/**
 * The `publishedAt` of a post's first publication: the clock's time, never earlier than the newest
 * listed post's (docs/operations.md, "Faults"). Lists sort by `publishedAt`, then id, so they show
 * posts in the order they were published even after the wall clock steps back: the posts published
 * after the step take the time of the last one published on the fast clock until the clock has
 * caught up with it, instead of sorting below it. One seek on `posts_listed_recent`.
 */
export function publicationTime(db: Queryable, now: string): string {
  const newest = db
    .select({ at: sql<string | null>`max(${posts.publishedAt})` })
    .from(posts)
    .where(eq(posts.listed, 1))
    .get()?.at
  return newest && newest > now ? newest : now
}
