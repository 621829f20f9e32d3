import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { authors, categories, posts, postTags, tags } from '../../db/schema/index.ts'
import { LANGUAGES, type Language } from '../../shared/language.ts'
import { RELATED_POSTS } from '../posts/present.ts'
import type { PostRow } from '../posts/repo.ts'
import { discoverable, isDiscoverable, publishedAfter, sameCategoryAsPlaceholders } from '../posts/visibility.ts'
import { previousInCategory } from '../site/neighbours.ts'
import { PAGES, type ListFilter, type Target } from './paths.ts'
import { partnersOf, shardOf, thresholdShards, type SiteOptions } from './snapshot.ts'

/**
 * Which artifacts a change touches. Everything here returns targets, never bytes: the renderer
 * reads the current database for each one, so a plan only has to be wide enough, and an
 * artifact it names needlessly is rendered to the same bytes and left untouched.
 */

/** A discoverable post as the artifacts show it; stored per post so the next change can undo it. */
export interface PostState {
  language: Language
  slug: string
  alternateSlug: string
  categoryId: number
  authorId: number | null
  tagIds: number[]
  publishedAt: string | null
  /**
   * Fingerprint of everything of the post the artifacts show: its `shown_revision` (moved by any
   * write of a shown column) and its tag ids, so a rebuild can tell which posts changed outside
   * the API. Engagement counts are left out: they refresh through their own delayed jobs.
   */
  inputs: string
}

/** An enabled author as the artifacts show it. */
export interface AuthorState {
  language: Language
  slug: string
}

const LIST_LANGUAGES = [null, ...LANGUAGES] as const
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

/** A post's tag ids, in order, joined by SQLite. */
const tagList = sql<
  string | null
>`(select group_concat(tag_id) from (select ${postTags.tagId} as tag_id from ${postTags} where ${postTags.postId} = ${posts.id} order by 1))`

/**
 * A post's state straight from SQLite. Its fingerprint is the post's `shown_revision`, which a
 * trigger moves whenever a column the artifacts show is written (schema/posts.ts), and its tags:
 * so a rebuild reads no content to tell which posts changed, even outside the API.
 */
const stateSelection = {
  id: posts.id,
  language: posts.language,
  slug: posts.slug,
  alternateSlug: posts.alternateSlug,
  categoryId: posts.categoryId,
  authorId: posts.authorId,
  publishedAt: posts.publishedAt,
  tags: tagList,
  shownRevision: posts.shownRevision,
}
const selectStates = (db: Queryable) => db.select(stateSelection).from(posts)
type StateRow = ReturnType<ReturnType<typeof selectStates>['all']>[number]

const stateFrom = (row: StateRow): PostState => ({
  language: row.language,
  slug: row.slug,
  alternateSlug: row.alternateSlug,
  categoryId: row.categoryId,
  authorId: row.authorId,
  tagIds: row.tags ? row.tags.split(',').map(Number) : [],
  publishedAt: row.publishedAt,
  inputs: `${row.shownRevision}:${row.tags ?? ''}`,
})

/** The next few newer discoverable posts of a post's language and category (after it, when it has a publication time). */
const newerQuery = (db: Queryable, after: SQL | undefined) =>
  db
    .select({ slug: posts.slug, language: posts.language })
    .from(posts)
    .where(and(sameCategoryAsPlaceholders, after))
    .orderBy(asc(posts.publishedAt), asc(posts.id))
    .limit(RELATED_POSTS)

/** The lookups a change's plan makes inside its write, compiled once per connection. */
const statements = preparedOnce((db) => ({
  state: selectStates(db)
    .where(and(discoverable, eq(posts.id, sql.placeholder('id'))))
    .prepare(),
  author: db
    .select({ language: authors.language, slug: authors.slug, status: authors.status })
    .from(authors)
    .where(eq(authors.id, sql.placeholder('id')))
    .prepare(),
  newer: newerQuery(db, publishedAfter(sql.placeholder('publishedAt'), sql.placeholder('id'))).prepare(),
  newerUndated: newerQuery(db, undefined).prepare(),
}))

/** A post's state as the database holds it now (null: not discoverable, or gone). */
export function currentPostState(db: Queryable, id: number): PostState | null {
  const row = statements(db).state.get({ id })
  return row ? stateFrom(row) : null
}

/**
 * The state of a version of a post that the database may no longer hold (the row before a
 * change, when none was recorded): where it showed. Its fingerprint is left empty, since only
 * recorded states of rows still there are ever compared.
 */
export function postStateOf(db: Queryable, row: PostRow): PostState | null {
  if (!isDiscoverable(row)) return null
  const tagIds = db.select({ id: postTags.tagId }).from(postTags).where(eq(postTags.postId, row.id)).orderBy(asc(postTags.tagId)).all()
  const { language, slug, alternateSlug, categoryId, authorId, publishedAt } = row
  return { language, slug, alternateSlug, categoryId, authorId, tagIds: tagIds.map((t) => t.id), publishedAt, inputs: '' }
}

/** The states of every discoverable post, in one query (what a rebuild records and compares). */
export function allPostStates(db: Queryable): Map<number, PostState> {
  return new Map(
    selectStates(db)
      .where(discoverable)
      .all()
      .map((row) => [row.id, stateFrom(row)]),
  )
}

export function authorStateOf(db: Queryable, id: number): AuthorState | null {
  const row = statements(db).author.get({ id })
  return row && row.status === 1 ? { language: row.language, slug: row.slug } : null
}

const listPages = (language: Language | null, filter: ListFilter): Target[] =>
  range(filter ? PAGES.filtered : PAGES.posts).map((page) => ({ kind: 'posts', language, filter, page }))

const authorTargets = (a: AuthorState): Target[] => [
  { kind: 'author', language: a.language, slug: a.slug },
  ...range(PAGES.authorPosts).map((page): Target => ({ kind: 'authorPosts', language: a.language, slug: a.slug, page })),
]

/** The discoverable posts whose `relatedPosts` can show a post at this place: the next few newer ones of its category. */
function newerNeighbours(db: Queryable, id: number, state: Pick<PostState, 'language' | 'categoryId' | 'publishedAt'>): Target[] {
  const { newer, newerUndated } = statements(db)
  const where = { language: state.language, categoryId: state.categoryId }
  const rows = state.publishedAt ? newer.all({ ...where, publishedAt: state.publishedAt, id }) : newerUndated.all(where)
  return rows.map((r) => ({ kind: 'post', language: r.language, slug: r.slug }))
}

/** The artifacts that show (or would show) a post with this state: where its counts appear. */
function postListings(db: Queryable, id: number, state: PostState): Target[] {
  const previous = previousInCategory(db, { id, ...state })
  const targets: Target[] = [{ kind: 'post', language: state.language, slug: state.slug }, ...newerNeighbours(db, id, state)]
  if (previous) targets.push({ kind: 'post', ...previous })
  for (const language of [null, state.language]) {
    targets.push(...listPages(language, null), ...listPages(language, { categoryId: state.categoryId }))
    if (state.authorId) targets.push(...listPages(language, { authorId: state.authorId }))
    for (const tagId of state.tagIds) targets.push(...listPages(language, { tagId }))
  }
  const author = state.authorId ? authorStateOf(db, state.authorId) : null
  if (author) targets.push(...authorTargets(author))
  return targets
}

/** Everything a post with this state appears in: its listings plus feeds, sitemap and author counts. */
export function postFootprint(db: Queryable, options: SiteOptions, id: number, state: PostState): Target[] {
  const author = state.authorId ? authorStateOf(db, state.authorId) : null
  const partners = partnersOf(db, state)
  return [
    ...postListings(db, id, state),
    ...(author ? [{ kind: 'authors', language: null } as Target, { kind: 'authors', language: author.language } as Target] : []),
    { kind: 'rss', language: state.language },
    { kind: 'sitemap' },
    ...[id, ...partners].map((p): Target => ({ kind: 'sitemapShard', shard: shardOf(p, options.sitemapShardSize) })),
    ...thresholdShards(db, options.sitemapShardSize).map((shard): Target => ({ kind: 'sitemapShard', shard })),
  ]
}

/** Claps and approved comments appear in a post's detail and in the cards of the lists it is in. */
export function engagementFootprint(db: Queryable, id: number, state: PostState): Target[] {
  return postListings(db, id, state).filter((t) => t.kind === 'post' || t.kind === 'posts' || t.kind === 'authorPosts')
}

/** Every pre-rendered post list: these embed category, tag and author data in each card. */
export function allLists(db: Queryable): Target[] {
  const ids = (table: typeof categories | typeof tags | typeof authors) =>
    db.select({ id: table.id }).from(table).orderBy(asc(table.id)).all()
  const targets: Target[] = []
  for (const language of LIST_LANGUAGES) {
    targets.push(...listPages(language, null))
    for (const { id } of ids(categories)) targets.push(...listPages(language, { categoryId: id }))
    for (const { id } of ids(tags)) targets.push(...listPages(language, { tagId: id }))
    for (const { id } of ids(authors)) targets.push(...listPages(language, { authorId: id }))
  }
  const enabled = db.select({ language: authors.language, slug: authors.slug }).from(authors).where(eq(authors.status, 1)).all()
  for (const author of enabled) targets.push(...authorTargets(author).filter((t) => t.kind === 'authorPosts'))
  return targets
}

/** Details of the discoverable posts matching `where`, and of the posts that list them as related. */
function detailsWhere(db: Queryable, where: SQL): Target[] {
  const rows = db.select().from(posts).where(and(discoverable, where)).all()
  return rows.flatMap((row) => [{ kind: 'post', language: row.language, slug: row.slug } as Target, ...newerNeighbours(db, row.id, row)])
}

const FEEDS: Target[] = LANGUAGES.map((language) => ({ kind: 'rss', language }))

/** A category is embedded in every post card and detail of it, and names the RSS items. */
export const categoryFootprint = (db: Queryable, id: number): Target[] => [
  { kind: 'categories' },
  ...allLists(db),
  ...detailsWhere(db, eq(posts.categoryId, id)),
  ...FEEDS,
]

export const tagFootprint = (db: Queryable, id: number): Target[] => [
  ...LIST_LANGUAGES.map((language): Target => ({ kind: 'tags', language })),
  { kind: 'tags', language: 'all' },
  ...allLists(db),
  ...detailsWhere(db, inArray(posts.id, db.select({ id: postTags.postId }).from(postTags).where(eq(postTags.tagId, id)))),
  ...FEEDS,
]

/** An author's own pages under its old and new slug, the author lists, and every card that embeds the profile. */
export const authorFootprint = (db: Queryable, id: number, before: AuthorState | null, after: AuthorState | null): Target[] => [
  ...[before, after].flatMap((state) => (state ? authorTargets(state) : [])),
  ...LIST_LANGUAGES.map((language): Target => ({ kind: 'authors', language })),
  ...allLists(db),
  ...detailsWhere(db, eq(posts.authorId, id)),
]

/**
 * Product cards appear only in the details of posts naming them in `relatedProductIds`; few posts
 * name any, so they are filtered here rather than with one LIKE per imported id.
 */
export function resourcesFootprint(db: Queryable, ids: readonly number[]): Target[] {
  const changed = new Set(ids.map(String))
  return db
    .select({ language: posts.language, slug: posts.slug, relatedProductIds: posts.relatedProductIds })
    .from(posts)
    .where(and(discoverable, ne(posts.relatedProductIds, '')))
    .all()
    .filter((row) => row.relatedProductIds.split(',').some((id) => changed.has(id)))
    .map((row): Target => ({ kind: 'post', language: row.language, slug: row.slug }))
}

/** Every artifact the database calls for now: what a full rebuild renders. */
export function everyTarget(db: Queryable, options: SiteOptions): Target[] {
  const postRows = db.select({ id: posts.id, language: posts.language, slug: posts.slug }).from(posts).where(discoverable).all()
  const enabledAuthors = db.select({ language: authors.language, slug: authors.slug }).from(authors).where(eq(authors.status, 1)).all()
  const shards = new Set(postRows.map((p) => shardOf(p.id, options.sitemapShardSize)))
  return [
    ...postRows.map((p): Target => ({ kind: 'post', language: p.language, slug: p.slug })),
    ...allLists(db),
    { kind: 'categories' },
    ...LIST_LANGUAGES.map((language): Target => ({ kind: 'tags', language })),
    { kind: 'tags', language: 'all' },
    ...LIST_LANGUAGES.map((language): Target => ({ kind: 'authors', language })),
    ...enabledAuthors.flatMap(authorTargets),
    { kind: 'settings' },
    ...FEEDS,
    { kind: 'sitemap' },
    ...[...shards].map((shard): Target => ({ kind: 'sitemapShard', shard })),
    { kind: 'robots' },
    { kind: 'openapi' },
  ]
}
