import { sql, type SQL } from 'drizzle-orm'
import { posts } from '../../db/schema/index.ts'
import { COLUMN_WEIGHTS } from './fts.ts'

/**
 * The SQL pieces a post list uses to match and rank through `post_search` (fts.ts). `match` is a
 * bound MATCH expression (`matchExpression`; `""`, the empty phrase, matches nothing).
 */

const weights = sql.raw(COLUMN_WEIGHTS.join(', '))

/** Posts whose index row matches: one FTS5 lookup for the whole list. */
export const indexMatches = (match: unknown): SQL => sql`${posts.id} in (select rowid from post_search where post_search match ${match})`

/** bm25 of the post's row (smaller is better); posts matched otherwise (a substring inside a word) come last. */
export const indexRank = (match: unknown): SQL =>
  sql`(select bm25(post_search, ${weights}) from post_search where post_search match ${match} and rowid = ${posts.id}) asc nulls last`
