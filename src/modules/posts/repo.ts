import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts, postSlugHistory, postTags } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import type { Language } from '../../shared/language.ts'

export type PostRow = typeof posts.$inferSelect
export type PostValues = typeof posts.$inferInsert

/** A post that exists and is not deleted, for the write verbs. */
export function livePost(db: Queryable, id: number): PostRow {
  const row = db
    .select()
    .from(posts)
    .where(and(eq(posts.id, id), isNull(posts.deletedAt)))
    .get()
  if (!row) throw new NotFound('post', id)
  return row
}

const sameSlug = (column: typeof posts.slug | typeof postSlugHistory.slug, slug: string) => sql`lower(${column}) = lower(${slug})`

/** The non-deleted post of `language` whose current slug is `slug` (case-insensitive). */
export const postByCurrentSlug = (db: Queryable, language: Language, slug: string): PostRow | undefined =>
  db
    .select()
    .from(posts)
    .where(and(eq(posts.language, language), sameSlug(posts.slug, slug), isNull(posts.deletedAt)))
    .get()

/** The non-deleted post of `language` that answered to `slug` before and now has another one. */
export function postByPreviousSlug(db: Queryable, language: Language, slug: string): PostRow | undefined {
  const rows = db
    .select({ post: posts })
    .from(postSlugHistory)
    .innerJoin(posts, eq(posts.id, postSlugHistory.postId))
    .where(and(eq(postSlugHistory.language, language), sameSlug(postSlugHistory.slug, slug), isNull(posts.deletedAt)))
    .all()
  return rows[0]?.post
}

/** Who, other than `exceptId`, holds `slug` in `language` as a current or previous slug. */
export function slugHolder(db: Queryable, language: Language, slug: string, exceptId: number | null): PostRow | undefined {
  const current = postByCurrentSlug(db, language, slug)
  if (current && current.id !== exceptId) return current
  const previous = postByPreviousSlug(db, language, slug)
  return previous && previous.id !== exceptId ? previous : undefined
}

export function replaceTags(db: Queryable, postId: number, tagIds: readonly number[]): void {
  db.delete(postTags).where(eq(postTags.postId, postId)).run()
  if (tagIds.length)
    db.insert(postTags)
      .values(tagIds.map((tagId) => ({ postId, tagId })))
      .run()
}

/**
 * Keeps the old slug of a published post answering (301) after a rename, and frees a slug the
 * post takes back.
 */
export function recordSlugChange(db: Queryable, before: PostRow, after: PostRow): void {
  db.delete(postSlugHistory)
    .where(and(eq(postSlugHistory.postId, after.id), sameSlug(postSlugHistory.slug, after.slug)))
    .run()
  const moved = before.slug.toLowerCase() !== after.slug.toLowerCase() || before.language !== after.language
  if (before.publishedAt === null || !moved) return
  db.insert(postSlugHistory).values({ postId: before.id, language: before.language, slug: before.slug }).onConflictDoNothing().run()
}
