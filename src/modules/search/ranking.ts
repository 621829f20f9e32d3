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

/**
 * The matching rows with their bm25 score (smaller is better), to join on `ranked.post_id`: one
 * FTS5 query for the whole list. `limit -1` (no limit) keeps SQLite from flattening the subquery
 * into the join, which ran the FTS5 query once per post (a 1,000-post list took 200 ms).
 */
export const rankedRows = (match: unknown): SQL =>
  sql`(select rowid as post_id, bm25(post_search, ${weights}) as score from post_search where post_search match ${match} limit -1) as ranked`

export const rankedJoin = sql`ranked.post_id = ${posts.id}`

/** Best score first; posts matched otherwise (a substring inside a word, for the keyword filter) after them. */
export const byScore = sql`ranked.score asc nulls last`
