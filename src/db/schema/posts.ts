import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { FaqBlock, TocItem } from '../../modules/seo/types.ts'
import { createdAt, seoColumns, updatedAt } from './columns.ts'
import { authors, categories, tags } from './taxonomy.ts'

export const posts = sqliteTable(
  'posts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    language: text('language', { enum: ['en', 'zh'] }).notNull(),
    slug: text('slug').notNull(),
    alternateSlug: text('alternate_slug').notNull().default(''),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    contentHtml: text('content_html').notNull(),
    contentText: text('content_text').notNull().default(''),
    coverImage: text('cover_image').notNull().default(''),
    coverAlt: text('cover_alt').notNull().default(''),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    authorId: integer('author_id').references(() => authors.id),
    author: text('author').notNull().default(''),
    ...seoColumns(),
    answerSummary: text('answer_summary').notNull().default(''),
    keyTakeaways: text('key_takeaways', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    faqBlocks: text('faq_blocks', { mode: 'json' })
      .$type<FaqBlock[]>()
      .notNull()
      .default(sql`'[]'`),
    toc: text('toc', { mode: 'json' })
      .$type<TocItem[]>()
      .notNull()
      .default(sql`'[]'`),
    relatedProductIds: text('related_product_ids').notNull().default(''),
    reviewedAt: text('reviewed_at'),
    status: integer('status').notNull().default(0),
    seoScore: integer('seo_score').notNull().default(0),
    aeoScore: integer('aeo_score').notNull().default(0),
    clapCount: integer('clap_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    publishedAt: text('published_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: text('deleted_at'),
    /** Grows by one with every edit or status change (If-Match, docs/agents.md); reader counts leave it alone. */
    version: integer('version').notNull().default(1),
    /**
     * Takes the next value of `post_shown_counter` whenever the row is inserted (a REPLACE
     * included) or a column the artifacts show is written, by any hand (an API save, a status
     * change, an UPDATE typed into sqlite3): the triggers of migrations 0009 and 0010 keep it, so a row
     * never gets back a revision recorded before. With the post's tags it is the post's
     * fingerprint for rebuilds (publishing/plan.ts), which then need not read the posts' content.
     * A column added to posts later must join the update trigger's column list, in a new
     * migration (plan.test.ts checks).
     */
    shownRevision: integer('shown_revision').notNull().default(0),
    /**
     * 1 when the post is publicly discoverable (lists, feeds, sitemap): derived by SQLite itself,
     * so no write path can forget it, and indexed so list counts never read the wide rows.
     */
    listed: integer('listed').generatedAlwaysAs(
      sql`status = 1 and deleted_at is null and indexable = 1 and instr(lower(robots), 'noindex') = 0`,
      { mode: 'virtual' },
    ),
  },
  (table) => [
    index('posts_listed').on(table.listed, table.language, table.publishedAt, table.id),
    index('posts_listed_category').on(table.listed, table.categoryId, table.publishedAt, table.id),
    index('posts_listed_author').on(table.listed, table.authorId, table.publishedAt, table.id),
    // A language's category or author list (the site's category and author pages, their feeds, the API's
    // filtered lists, related posts) seeks both: on the indexes above SQLite read every post of the category
    // to check its language. Language comes after the category so a language's whole list keeps posts_listed.
    index('posts_listed_category_language').on(table.listed, table.categoryId, table.language, table.publishedAt, table.id),
    index('posts_listed_author_language').on(table.listed, table.authorId, table.language, table.publishedAt, table.id),
    // Slugs are compared case-insensitively; the index must be on the same expression to be used.
    index('posts_slug').on(table.language, sql`lower(${table.slug})`),
    // Translations are paired through `alternateSlug` both ways (publishing/snapshot.ts `partnerOf`, `partnersOf`, the sitemap rows).
    index('posts_alternate_slug').on(table.language, sql`lower(${table.alternateSlug})`),
    // Newest-first lists over every language walk this index and stop after the page.
    index('posts_listed_recent').on(table.listed, table.publishedAt, table.id),
    // Sitemap shards are id ranges: a shard seeks its range and reads its entries (and its lastmod) from this
    // index alone; the cover sits after the wide body columns, whose overflow pages made a 1,000-post shard ~15x slower.
    index('posts_sitemap').on(table.listed, table.id, table.updatedAt, table.language, table.slug, table.alternateSlug, table.coverImage),
  ],
)

export const postTags = sqliteTable(
  'post_tags',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id),
  },
  (table) => [primaryKey({ columns: [table.postId, table.tagId] }), index('post_tags_tag').on(table.tagId)],
)

/** Slugs a published post answered to before; they keep redirecting (301) to its current slug. */
export const postSlugHistory = sqliteTable(
  'post_slug_history',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id),
    language: text('language', { enum: ['en', 'zh'] }).notNull(),
    slug: text('slug').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('post_slug_history_slug').on(table.language, sql`lower(${table.slug})`),
    index('post_slug_history_post').on(table.postId),
  ],
)

/**
 * The post as each save left it (docs/agents.md, "Revisions"). `version` is the post version the
 * save produced, so a client holding version n can read revision n. `fields` holds the editable
 * fields (tags included) as JSON; derived fields (contentText, toc) are recomputed on restore.
 */
export const postRevisions = sqliteTable(
  'post_revisions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id),
    version: integer('version').notNull(),
    fields: text('fields', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    changedFields: text('changed_fields', { mode: 'json' }).$type<string[]>().notNull(),
    tokenName: text('token_name').notNull(),
    seoScore: integer('seo_score').notNull(),
    aeoScore: integer('aeo_score').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('post_revisions_version').on(table.postId, table.version)],
)

/** The one row (`id` 1) whose `value` the posts' revision triggers advance: see `posts.shownRevision`. */
export const postShownCounter = sqliteTable('post_shown_counter', {
  id: integer('id').primaryKey(),
  value: integer('value').notNull(),
})
