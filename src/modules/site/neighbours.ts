import { and, asc, desc, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { posts } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import { approvedComments } from '../engagement/engagement.ts'
import type { PublicCommentRes } from '../engagement/model.ts'
import {
  publishedAfter,
  publishedBefore,
  sameCategoryAsPlaceholders,
  sameCategoryAsSource,
  source,
  SOURCES,
  sourcesOf,
} from '../posts/visibility.ts'

/**
 * A post page's way on: the previous post is the first of its related posts (the next older of
 * its category), the next one the next newer of its category, found here on the
 * `(listed, category_id, published_at, id)` index. So the oldest post of a category leads on
 * to a newer one, and only a category's one post has neither (its page still links the category).
 */
export interface Neighbour {
  slug: string
  title: string
}

interface Place {
  id: number
  language: string
  categoryId: number
  publishedAt: string | null
}

/** The posts a batch's next-newer lookups range over (`n`). */
const newer = alias(posts, 'n')

export const neighbourStatements = preparedOnce((db) => {
  // The next newer of each post of a batch, in one statement: `sources` is a JSON array of
  // `[id, language, categoryId, publishedAt]`, and for each SQLite seeks the category index to the
  // post's place and takes the first (a correlated subquery per source, as posts/present.ts
  // `relatedStatements` finds the related posts); a rebuild asked it of every page alone.
  const first = db
    .select({ id: newer.id })
    .from(newer)
    .where(and(sameCategoryAsSource(newer), publishedAfter(source(3), source(0), newer)))
    .orderBy(asc(newer.publishedAt), asc(newer.id))
    .limit(1)
  return {
    newer: db
      .select({ sourceId: sql<number>`${source(0)}`, slug: posts.slug, title: posts.title })
      .from(SOURCES)
      .innerJoin(posts, sql`${posts.id} = (${first})`)
      .prepare(),
    // The one post just older than this place on the index.
    older: db
      .select({ language: posts.language, slug: posts.slug })
      .from(posts)
      .where(and(sameCategoryAsPlaceholders, publishedBefore(sql.placeholder('publishedAt'), sql.placeholder('id'))))
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(1)
      .prepare(),
  }
})

/** The next newer discoverable post of each post's category and language, by id; none for a post not yet published. */
function nextInCategory(db: Queryable, batch: readonly Place[]): Map<number, Neighbour> {
  const dated = batch.filter((post) => post.publishedAt)
  if (!dated.length) return new Map()
  return new Map(
    neighbourStatements(db)
      .newer.all({ sources: sourcesOf(dated) })
      .map((row) => [row.sourceId, { slug: row.slug, title: row.title }]),
  )
}

/** The post whose page names this one as its next (the next older of its category): a change here re-renders it. */
export function previousInCategory(db: Queryable, post: Place): { language: Language; slug: string } | null {
  if (!post.publishedAt) return null
  const row = neighbourStatements(db).older.get({
    id: post.id,
    language: post.language,
    categoryId: post.categoryId,
    publishedAt: post.publishedAt,
  })
  return row ? { language: row.language, slug: row.slug } : null
}

/** What a post page shows beyond the post itself: where to go next, and the approved comments. */
export interface PostExtras {
  next: Neighbour | null
  comments: PublicCommentRes[]
}

export const NO_EXTRAS: PostExtras = { next: null, comments: [] }

/** `postExtrasOf` of a batch's post pages, by id: the next newer of them all read in one statement. */
export function postExtrasOfMany(db: Queryable, batch: readonly Place[]): Map<number, PostExtras> {
  const next = nextInCategory(db, batch)
  return new Map(
    batch.map((post) => [post.id, { next: next.get(post.id) ?? null, comments: approvedComments(db, post.id, post.language as Language) }]),
  )
}

export const postExtrasOf = (db: Queryable, post: Place): PostExtras => postExtrasOfMany(db, [post]).get(post.id)!
