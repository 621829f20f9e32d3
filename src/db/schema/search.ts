import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Which revision of each post the full-text index (`post_search`, an FTS5 table made by hand in
 * its own migration: drizzle has no virtual tables) holds. A post whose `shown_revision` differs
 * (a write that bypassed the API, an upgrade from before search) is indexed again at start.
 */
export const postSearchState = sqliteTable('post_search_state', {
  /** A post's id; no foreign key, so nothing that removes posts has to know of the index. */
  postId: integer('post_id').primaryKey(),
  shownRevision: integer('shown_revision').notNull(),
  /**
   * The tokens of the post's title, summary and slug with their weights (a title hit counts most),
   * as the site's static index stores them: a publish re-renders its post's index segment from these rows without reading
   * or tokenizing any body (modules/site-search). `{}` for a deleted post.
   */
  terms: text('terms', { mode: 'json' }).$type<Record<string, number>>().notNull(),
})
