import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { FaqBlock, TocItem } from '../../modules/seo/types.ts'
import { createdAt, updatedAt } from './columns.ts'
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
    seoTitle: text('seo_title').notNull().default(''),
    seoDescription: text('seo_description').notNull().default(''),
    canonicalUrl: text('canonical_url').notNull().default(''),
    robots: text('robots').notNull().default(''),
    indexable: integer('indexable', { mode: 'boolean' }).notNull().default(true),
    ogTitle: text('og_title').notNull().default(''),
    ogDescription: text('og_description').notNull().default(''),
    ogImage: text('og_image').notNull().default(''),
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
  },
  (table) => [
    index('posts_public').on(table.language, table.status, table.publishedAt),
    index('posts_category').on(table.categoryId, table.status, table.publishedAt),
    index('posts_author').on(table.authorId, table.status, table.publishedAt),
    index('posts_slug').on(table.language, table.slug),
    // Newest-first lists walk this index and stop after the page instead of sorting every post.
    index('posts_recent').on(table.publishedAt, table.id),
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
  (table) => [uniqueIndex('post_slug_history_slug').on(table.language, table.slug), index('post_slug_history_post').on(table.postId)],
)
