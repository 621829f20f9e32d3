import { eq, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { connectionOf, preparedOnce } from '../../db/prepared.ts'
import { posts, postSearchState } from '../../db/schema/index.ts'
import type { ChangeListener } from '../../shared/changes.ts'
import { indexTokens, queryTerms, type Term } from './tokens.ts'

/**
 * The server's full-text index of posts: `post_search` (FTS5, migration 0014) holds each live
 * post's title, summary, slug and body as pre-tokenized text (tokens.ts), with the post id as
 * rowid; `post_search_state` records which `shown_revision` it holds. A post write updates its row
 * inside the write's own transaction (`searchIndexer`); the server's catch-up (catch-up.ts, in the
 * background after every start) indexes whatever changed behind the API's back and, after the
 * upgrade that added search, every post there is.
 */

/** The columns' weights for bm25: a hit in the title counts most. Order of `post_search`'s columns. */
export const COLUMN_WEIGHTS = [8, 4, 2, 1] as const

const statements = preparedOnce((db) => ({
  source: db
    .select({
      title: posts.title,
      summary: posts.summary,
      slug: posts.slug,
      body: posts.contentText,
      deletedAt: posts.deletedAt,
      shownRevision: posts.shownRevision,
    })
    .from(posts)
    .where(eq(posts.id, sql.placeholder('id')))
    .prepare(),
  stale: db
    .select({ id: posts.id })
    .from(posts)
    .leftJoin(postSearchState, eq(postSearchState.postId, posts.id))
    .where(sql`${postSearchState.shownRevision} is not ${posts.shownRevision}`)
    .prepare(),
  gone: db
    .select({ id: postSearchState.postId })
    .from(postSearchState)
    .where(sql`not exists (select 1 from ${posts} where ${posts.id} = ${postSearchState.postId})`)
    .prepare(),
  // indexPost's writes: an import's catch-up runs them for thousands of posts in a row.
  unindex: connectionOf(db).prepare<unknown, [number]>('delete from post_search where rowid = ?'),
  index: connectionOf(db).prepare<unknown, [number, string, string, string, string]>(
    'insert into post_search (rowid, title, summary, slug, body) values (?, ?, ?, ?, ?)',
  ),
  state: db
    .insert(postSearchState)
    .values({ postId: sql.placeholder('postId'), shownRevision: sql.placeholder('shownRevision'), terms: sql.placeholder('terms') })
    .onConflictDoUpdate({
      target: postSearchState.postId,
      set: { shownRevision: sql`excluded.shown_revision`, terms: sql`excluded.terms` },
    })
    .prepare(),
}))

/** A token's weight in a post is capped, so one repeated word cannot drown the others. */
const MAX_WEIGHT = 255
/**
 * The site's static index holds titles, summaries and slugs, not bodies: with bodies a reader's
 * two-word query downloaded ~8× more (77 KiB gzipped at 1,000 posts, bench/search.bench.ts) and the
 * terms table grew by the body's bigrams. Bodies are searched by the API (`GET search`).
 */
const STATIC_COLUMNS = 3

/** A post's columns as indexed: the tokens of each, in `post_search`'s column order. */
const columnsOf = (post: { title: string; summary: string; slug: string; body: string }) =>
  [post.title, post.summary, post.slug.replaceAll('-', ' '), post.body].map(indexTokens)

/** Each token's weight in the post: its occurrences, each counting its column's COLUMN_WEIGHTS. */
function weightsOf(columns: string[][]): Record<string, number> {
  const terms: Record<string, number> = {}
  columns.forEach((tokens, column) => {
    for (const token of tokens) terms[token] = Math.min(MAX_WEIGHT, (terms[token] ?? 0) + COLUMN_WEIGHTS[column]!)
  })
  return terms
}

/** Brings one post's row of the index in line with the post (none when the post is deleted or gone). */
export function indexPost(db: Queryable, id: number): void {
  const statement = statements(db)
  const post = statement.source.get({ id })
  statement.unindex.run(id)
  if (!post) {
    db.delete(postSearchState).where(eq(postSearchState.postId, id)).run()
    return
  }
  // A deleted post keeps its state row (so the catch-up leaves it alone) and has no index row.
  const columns = post.deletedAt ? [] : columnsOf(post)
  if (columns.length) {
    const [title, summary, slug, body] = columns.map((tokens) => tokens.join(' '))
    statement.index.run(id, title!, summary!, slug!, body!)
  }
  statement.state.run({ postId: id, shownRevision: post.shownRevision, terms: weightsOf(columns.slice(0, STATIC_COLUMNS)) })
}

/** Keeps the index in step with every post write, in the write's transaction. */
export const searchIndexer: ChangeListener = {
  inTransaction(tx, change) {
    if (change.kind === 'post') indexPost(tx, change.after.id)
  },
}

/** The posts whose indexed revision is missing or stale, and the rows of posts that are gone. */
export function staleSearchIds(db: Queryable): number[] {
  return [
    ...statements(db)
      .stale.all()
      .map((r) => r.id),
    ...statements(db)
      .gone.all()
      .map((r) => r.id),
  ]
}

/** Indexes every stale post at once, in one transaction (an import's end); returns how many. The server does it in slices (catch-up.ts). */
export function catchUpSearchIndex(db: Queryable): number {
  const ids = staleSearchIds(db)
  if (ids.length) db.transaction((tx) => ids.forEach((id) => indexPost(tx, id)))
  return ids.length
}

const phrase = (term: Term) => `"${term.tokens.join(' ')}"${term.prefix ? '*' : ''}`

/**
 * An FTS5 MATCH expression every term of the query must satisfy, or null when the query has no
 * word. Tokens hold only letters and digits (tokens.ts), so quoting them is all the escaping FTS5 needs.
 */
export function matchExpression(query: string, columns?: readonly string[]): string | null {
  const terms = queryTerms(query)
  if (!terms.length) return null
  const all = terms.map(phrase).join(' AND ')
  return columns ? `{${columns.join(' ')}} : (${all})` : all
}
