import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, seoColumns, updatedAt } from './columns.ts'

/**
 * Standalone pages (About, Contact, Privacy; docs/pages.md): a title and a sanitized body at
 * `/en/{slug}` or `/cn/{slug}`, never in post lists or feeds. A page pairs with its translation
 * as posts do, through `alternateSlug` (the other language's slug). `navPlacement` puts a
 * published page in the site's header or footer navigation, ordered by `navOrder` then id.
 */
export const pages = sqliteTable(
  'pages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    language: text('language', { enum: ['en', 'zh'] }).notNull(),
    slug: text('slug').notNull(),
    alternateSlug: text('alternate_slug').notNull().default(''),
    title: text('title').notNull(),
    contentHtml: text('content_html').notNull(),
    contentText: text('content_text').notNull().default(''),
    ...seoColumns(),
    /** 0 draft, 1 published. */
    status: integer('status').notNull().default(0),
    navPlacement: text('nav_placement', { enum: ['none', 'header', 'footer'] })
      .notNull()
      .default('none'),
    navOrder: integer('nav_order').notNull().default(0),
    /** Grows by one with every edit or status change (If-Match), as a post's does. */
    version: integer('version').notNull().default(1),
    publishedAt: text('published_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('pages_language_slug').on(table.language, table.slug),
    index('pages_nav').on(table.status, table.language, table.navPlacement, table.navOrder),
  ],
)
