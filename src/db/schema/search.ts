import { integer, sqliteTable } from 'drizzle-orm/sqlite-core'

/**
 * Which revision of each post the full-text index (`post_search`, an FTS5 table made by hand in
 * its own migration: drizzle has no virtual tables) holds. A post whose `shown_revision` differs
 * (a write that bypassed the API, an upgrade from before search) is indexed again at start.
 */
export const postSearchState = sqliteTable('post_search_state', {
  /** A post's id; no foreign key, so nothing that removes posts has to know of the index. */
  postId: integer('post_id').primaryKey(),
  shownRevision: integer('shown_revision').notNull(),
})
