import { and, eq, gt, gte, isNull, lt, lte, or, sql, type AnyColumn, type SQLWrapper } from 'drizzle-orm'
import { posts } from '../../db/schema/index.ts'

export const POST_STATUS = { draft: 0, published: 1, offline: 2 } as const

/** Publicly readable by slug: published and not deleted (a noindex post is readable, not listed). */
export const readable = and(eq(posts.status, POST_STATUS.published), isNull(posts.deletedAt))

/**
 * Publicly discoverable: readable, indexable, and no `noindex` robots directive (lists, feeds,
 * sitemap). `discoverableIn(of)`: the same test on another name for posts (an alias).
 */
export const discoverableIn = (of: { listed: AnyColumn }) => eq(of.listed, 1)
export const discoverable = discoverableIn(posts)

/**
 * Posts published strictly before / after the post at (`at`, `id`) in publication order (ties on
 * the time broken by id). Spelled with a plain range on `published_at` beside the tie-break, so
 * SQLite seeks the `(listed, category_id, published_at, id)` index to the spot: the bare OR of the
 * two cases made it walk every newer (or older) post of the category first, one O(N) scan per
 * related-posts lookup (the cause of rebuilds slowing per post as a site grew). `of`: another
 * name for posts (an alias in a correlated subquery).
 */
export const publishedBefore = (at: string | SQLWrapper, id: number | SQLWrapper, of: { publishedAt: AnyColumn; id: AnyColumn } = posts) =>
  and(lte(of.publishedAt, at), or(lt(of.publishedAt, at), lt(of.id, id)))
export const publishedAfter = (at: string | SQLWrapper, id: number | SQLWrapper, of: { publishedAt: AnyColumn; id: AnyColumn } = posts) =>
  and(gte(of.publishedAt, at), or(gt(of.publishedAt, at), gt(of.id, id)))

/**
 * Discoverable posts of the language and category bound to the `language` and `categoryId`
 * placeholders: where a post's related posts (older) and the posts showing it as related (newer)
 * are found, on the `(listed, category_id, published_at, id)` index.
 */
export const sameCategoryAsPlaceholders = and(
  discoverable,
  eq(posts.language, sql.placeholder('language')),
  eq(posts.categoryId, sql.placeholder('categoryId')),
)

/** The same test for a row already in memory: SQLite derives `listed`, so nothing restates its definition. */
export const isDiscoverable = (row: { listed: number | null }): boolean => row.listed === 1

/**
 * A batch of posts to look up around, one statement for all (a correlated subquery per post, each
 * seeking the `(listed, category_id, published_at, id)` index): `sourcesOf` binds them to the
 * `sources` placeholder as `[id, language, categoryId, publishedAt]` rows of `json_each(sources) as
 * source` (`SOURCES`), `source(i)` is a row's i-th value, and `sameCategoryAsSource(of)` the
 * discoverable posts (`of`: an alias) of its language and category.
 */
export const SOURCES = sql`json_each(${sql.placeholder('sources')}) as source`
export const source = (i: 0 | 1 | 2 | 3) => sql.raw(`source.value ->> ${i}`)
export const sameCategoryAsSource = (of: { listed: AnyColumn; language: AnyColumn; categoryId: AnyColumn }) =>
  and(discoverableIn(of), eq(of.language, source(1)), eq(of.categoryId, source(2)))
export const sourcesOf = (batch: readonly { id: number; language: string; categoryId: number; publishedAt: string | null }[]) =>
  JSON.stringify(batch.map((post) => [post.id, post.language, post.categoryId, post.publishedAt]))
