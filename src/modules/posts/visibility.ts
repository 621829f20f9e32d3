import { and, eq, isNull } from 'drizzle-orm'
import { posts } from '../../db/schema/index.ts'

export const POST_STATUS = { draft: 0, published: 1, offline: 2 } as const
export type PostStatus = (typeof POST_STATUS)[keyof typeof POST_STATUS]

/** Publicly readable by slug: published and not deleted (a noindex post is readable, not listed). */
export const readable = and(eq(posts.status, POST_STATUS.published), isNull(posts.deletedAt))

/** Publicly discoverable: readable, indexable, and no `noindex` robots directive (lists, feeds, sitemap). */
export const discoverable = eq(posts.listed, 1)

/** Mirrors the `listed` column's definition for a post already in memory. */
export const hasNoindex = (post: { indexable: boolean; robots: string }): boolean =>
  !post.indexable || post.robots.toLowerCase().includes('noindex')
