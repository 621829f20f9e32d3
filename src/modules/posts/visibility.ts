import { and, eq, isNull } from 'drizzle-orm'
import { posts } from '../../db/schema/index.ts'

export const POST_STATUS = { draft: 0, published: 1, offline: 2 } as const
export type PostStatus = (typeof POST_STATUS)[keyof typeof POST_STATUS]

/** Publicly readable by slug: published and not deleted (a noindex post is readable, not listed). */
export const readable = and(eq(posts.status, POST_STATUS.published), isNull(posts.deletedAt))

/** Publicly discoverable: readable, indexable, and no `noindex` robots directive (lists, feeds, sitemap). */
export const discoverable = eq(posts.listed, 1)

/** The same test for a row already in memory: SQLite derives `listed`, so nothing restates its definition. */
export const isDiscoverable = (row: { listed: number | null }): boolean => row.listed === 1
