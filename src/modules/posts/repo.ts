import { and, eq, isNull, sql, type SQLWrapper } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { connectionOf, preparedOnce } from '../../db/prepared.ts'
import { posts, postSlugHistory, postTags } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import type { Language } from '../../shared/language.ts'

export type PostRow = typeof posts.$inferSelect
export type PostValues = typeof posts.$inferInsert

const sameSlug = (column: typeof posts.slug | typeof postSlugHistory.slug, slug: string | SQLWrapper) =>
  sql`lower(${column}) = lower(${slug})`

/** The lookups of every save, publish and SEO check, prepared once (db/prepared.ts); each seeks an index. */
const statements = preparedOnce((db) => ({
  live: db
    .select()
    .from(posts)
    .where(and(eq(posts.id, sql.placeholder('id')), isNull(posts.deletedAt)))
    .prepare(),
  byCurrentSlug: db
    .select()
    .from(posts)
    .where(and(eq(posts.language, sql.placeholder('language')), sameSlug(posts.slug, sql.placeholder('slug')), isNull(posts.deletedAt)))
    .prepare(),
  // The history row alone, then the post by id: the same answer as joining the two, but bun:sqlite
  // spent ~0.1 ms on each call of the join's wide select even when no row matched (every import
  // post's slug check asks it several times), against ~5 µs for these two seeks.
  previousSlugHolder: db
    .select({ postId: postSlugHistory.postId })
    .from(postSlugHistory)
    .where(and(eq(postSlugHistory.language, sql.placeholder('language')), sameSlug(postSlugHistory.slug, sql.placeholder('slug'))))
    .prepare(),
  dropTags: db
    .delete(postTags)
    .where(eq(postTags.postId, sql.placeholder('postId')))
    .prepare(),
  // One statement for any number of tags (json_each), in the order given.
  addTags: connectionOf(db).prepare<unknown, [number, string]>(
    'insert into post_tags (post_id, tag_id) select ?1, value from json_each(?2) order by key',
  ),
}))

/** A post that exists and is not deleted, for the write verbs. */
export function livePost(db: Queryable, id: number): PostRow {
  const row = statements(db).live.get({ id })
  if (!row) throw new NotFound('post', id)
  return row
}

/** The non-deleted post of `language` whose current slug is `slug` (case-insensitive). */
export const postByCurrentSlug = (db: Queryable, language: Language, slug: string): PostRow | undefined =>
  statements(db).byCurrentSlug.get({ language, slug })

/** The non-deleted post of `language` that answered to `slug` before and now has another one. */
export function postByPreviousSlug(db: Queryable, language: Language, slug: string): PostRow | undefined {
  const held = statements(db).previousSlugHolder.get({ language, slug })
  return held && statements(db).live.get({ id: held.postId })
}

/** Who, other than `exceptId`, holds `slug` in `language` as a current or previous slug. */
export function slugHolder(db: Queryable, language: Language, slug: string, exceptId: number | null): PostRow | undefined {
  const current = postByCurrentSlug(db, language, slug)
  if (current && current.id !== exceptId) return current
  const previous = postByPreviousSlug(db, language, slug)
  return previous && previous.id !== exceptId ? previous : undefined
}

export function replaceTags(db: Queryable, postId: number, tagIds: readonly number[]): void {
  const { dropTags, addTags } = statements(db)
  dropTags.run({ postId })
  if (tagIds.length) addTags.run(postId, JSON.stringify(tagIds))
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
