import { and, count, desc, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { posts, postTags } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import { NotFound } from '../../shared/errors.ts'
import type { Language } from '../../shared/language.ts'
import { containing } from '../../shared/like.ts'
import { memo } from '../../shared/memo.ts'
import { byScore, indexMatches, rankedJoin, rankedRows } from '../search/ranking.ts'
import { matchExpression } from '../search/fts.ts'
import type { PostCard, PostRes } from './model.ts'
import { cardColumns, cardsOf, toPostCards, toPostRes, type CardRow } from './present.ts'
import { postByCurrentSlug, postByPreviousSlug } from './repo.ts'
import { discoverable, readable } from './visibility.ts'

export interface PostListQuery {
  language?: Language
  categoryId?: number
  authorId?: number
  tagId?: number
  keyword?: string
  /** Full-text search over title, summary, slug and body (the `search` extension), ranked by relevance. */
  search?: string
  current: number
  size: number
}

/** The spec's `keyword` searches title, summary and slug (§4.2): its words match there only. */
const KEYWORD_COLUMNS = ['title', 'summary', 'slug']

/** The filters a list query sets, as placeholder values; which ones are set picks its statement. */
function filterValues(query: PostListQuery): Record<string, string | number> {
  const keyword = query.keyword?.trim()
  const values: Record<string, string | number> = {}
  if (query.language) values.language = query.language
  if (query.categoryId) values.categoryId = query.categoryId
  if (query.authorId) values.authorId = query.authorId
  if (query.tagId) values.tagId = query.tagId
  if (keyword) values.pattern = containing(keyword)
  // The keyword's words also match through the full-text index (in any order), which ranks the list.
  const words = keyword && matchExpression(keyword, KEYWORD_COLUMNS)
  if (words) values.words = words
  // A search without a single word matches nothing (the empty phrase).
  if (query.search !== undefined) values.search = matchExpression(query.search) ?? '""'
  return values
}

function listFilter(set: Record<string, unknown>): SQL | undefined {
  const value = (name: string) => sql.placeholder(name)
  const like = (column: SQLWrapper) => sql`${column} like ${value('pattern')} escape '\\'`
  return and(
    discoverable,
    'language' in set ? eq(posts.language, value('language')) : undefined,
    'categoryId' in set ? eq(posts.categoryId, value('categoryId')) : undefined,
    'authorId' in set ? eq(posts.authorId, value('authorId')) : undefined,
    'tagId' in set
      ? sql`exists (select 1 from ${postTags} where ${postTags.postId} = ${posts.id} and ${postTags.tagId} = ${value('tagId')})`
      : undefined,
    'pattern' in set
      ? or(like(posts.title), like(posts.summary), like(posts.slug), 'words' in set ? indexMatches(value('words')) : undefined)
      : undefined,
    'search' in set ? indexMatches(value('search')) : undefined,
  )
}

/**
 * The count and the page of a list, prepared once per connection for each combination of
 * filters (at most 32), the values bound at each call.
 */
const listStatements = preparedOnce(() => memo<string, ReturnType<typeof prepareList>>())

function prepareList(db: Queryable, set: Record<string, unknown>) {
  const where = listFilter(set)
  const newest = [desc(posts.publishedAt), desc(posts.id)]
  // Relevance first when a query names words (bm25, title hits weighing most), then newest first.
  const ranking = 'search' in set ? 'search' : 'words' in set ? 'words' : null
  const base = db.select(cardColumns).from(posts)
  const ranked = ranking
    ? base
        .leftJoin(rankedRows(sql.placeholder(ranking)), rankedJoin)
        .where(where)
        .orderBy(byScore, ...newest)
    : null
  return {
    total: db.select({ n: count() }).from(posts).where(where).prepare(),
    rows: (ranked ?? base.where(where).orderBy(...newest)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(),
  }
}

const statementsFor = (db: Queryable, values: Record<string, unknown>) =>
  listStatements(db)(Object.keys(values).join(), () => prepareList(db, values))

/** `GET posts` (spec §4.2): discoverable posts, newest first, as cards. */
export function listPublicPosts(db: Queryable, query: PostListQuery): Page<PostCard> {
  const values = filterValues(query)
  const statements = statementsFor(db, values)
  const total = statements.total.get(values)?.n ?? 0
  const found = statements.rows.all({ ...values, limit: query.size, offset: (query.current - 1) * query.size })
  return { total, size: query.size, current: query.current, records: toPostCards(db, found) }
}

/** The post lists of one read snapshot: `listPublicPosts` with each list counted and read once. */
export interface PostLists {
  page(query: PostListQuery): Page<PostCard>
}

/**
 * Many artifacts of a render pass show the same list (the API's pages 1-5, the site's list pages,
 * the feeds): within one read snapshot each list is counted once, each of its rows is read once
 * (the rows held so far grow to the deepest page asked for; skipping the rows held walks the
 * index alone) and each card is built once (`cardsOf`). Only for one snapshot:
 * the memo never outlives the transaction it was made in.
 */
export function postLists(db: Queryable): PostLists {
  const cards = cardsOf(db)
  const lists = memo<string, { total: number; rows: CardRow[] }>()
  return {
    page(query) {
      const values = filterValues(query)
      const statements = statementsFor(db, values)
      const list = lists(JSON.stringify(values), () => ({ total: statements.total.get(values)?.n ?? 0, rows: [] }))
      const start = (query.current - 1) * query.size
      const end = start + query.size
      const held = list.rows.length
      if (held < Math.min(end, list.total)) list.rows.push(...statements.rows.all({ ...values, limit: end - held, offset: held }))
      return { total: list.total, size: query.size, current: query.current, records: cards(list.rows.slice(start, end)) }
    },
  }
}

export type PostDetail = { post: PostRes } | { movedTo: string }

/** `GET posts/{slug}`: the published post, or where an old slug of it moved (answered as 301). */
export function publicPostDetail(db: Queryable, slug: string, language: Language): PostDetail {
  const current = postByCurrentSlug(db, language, slug)
  if (current && current.status === 1 && !current.deletedAt) {
    // A case variant of the slug redirects to the canonical spelling.
    return current.slug === slug ? { post: toPostRes(db, current) } : { movedTo: current.slug }
  }
  const moved = postByPreviousSlug(db, language, slug)
  if (
    moved &&
    db
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.id, moved.id), readable))
      .get()
  )
    return { movedTo: moved.slug }
  throw new NotFound('published post', slug, 'slug')
}
