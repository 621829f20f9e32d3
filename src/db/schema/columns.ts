import { sql } from 'drizzle-orm'
import { integer, text } from 'drizzle-orm/sqlite-core'

/** Times are stored as the spec shows them, `YYYY-MM-DD HH:mm:ss` UTC, which also sorts as text. */
export const createdAt = () =>
  text('created_at')
    .notNull()
    .default(sql`(strftime('%Y-%m-%d %H:%M:%S', 'now'))`)
export const updatedAt = () =>
  text('updated_at')
    .notNull()
    .default(sql`(strftime('%Y-%m-%d %H:%M:%S', 'now'))`)

/**
 * The search-engine and social-card columns posts and pages both carry (docs/pages.md): fresh
 * builders per table, in one place so the two stay alike.
 */
export const seoColumns = () => ({
  seoTitle: text('seo_title').notNull().default(''),
  seoDescription: text('seo_description').notNull().default(''),
  canonicalUrl: text('canonical_url').notNull().default(''),
  robots: text('robots').notNull().default(''),
  indexable: integer('indexable', { mode: 'boolean' }).notNull().default(true),
  ogTitle: text('og_title').notNull().default(''),
  ogDescription: text('og_description').notNull().default(''),
  ogImage: text('og_image').notNull().default(''),
})
