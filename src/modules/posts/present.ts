import { and, asc, desc, eq, getTableColumns, ne, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Queryable } from '../../db/client.ts'
import { idIn, preparedOnce } from '../../db/prepared.ts'
import { authors, categories, posts, postSchedules, postTags, tags } from '../../db/schema/index.ts'
import { toAuthorRes } from '../authors/authors.ts'
import { relatedResources } from '../resources/catalogue.ts'
import { toCategoryRes } from '../taxonomy/categories.ts'
import { toTagRes } from '../taxonomy/tags.ts'
import type { PostCard, PostRes, PostSchedule, WriterPostRes } from './model.ts'
import type { PostRow } from './repo.ts'
import { publishedBefore, sameCategoryAsPlaceholders, sameCategoryAsSource, source, SOURCES, sourcesOf } from './visibility.ts'

/** How many older posts of the same category a post response lists as related. */
export const RELATED_POSTS = 3

/** What a card shows of a post: every column but the body and what is derived from it. */
const { contentHtml, contentText, faqBlocks, toc, ...columns } = getTableColumns(posts)
export const cardColumns = columns
export type CardRow = Omit<PostRow, 'contentHtml' | 'contentText' | 'faqBlocks' | 'toc'>

const embedStatements = preparedOnce((db) => ({
  tags: db
    .select({ postId: postTags.postId, tag: tags })
    .from(postTags)
    .innerJoin(tags, eq(tags.id, postTags.tagId))
    .where(and(idIn(postTags.postId), eq(tags.status, 1)))
    .orderBy(asc(tags.id))
    .prepare(),
  categories: db.select().from(categories).where(idIn(categories.id)).prepare(),
  // Only enabled authors are shown publicly.
  authors: db
    .select()
    .from(authors)
    .where(and(idIn(authors.id), eq(authors.status, 1)))
    .prepare(),
}))

/** What a card embeds, read for a whole page at once: one query per table, not per card. */
interface Embeds {
  tags: Map<number, ReturnType<typeof toTagRes>[]>
  categories: Map<number, ReturnType<typeof toCategoryRes>>
  authors: Map<number, ReturnType<typeof toAuthorRes>>
}

function embedsOf(db: Queryable, rows: readonly CardRow[]): Embeds {
  const statements = embedStatements(db)
  const ids = (list: readonly number[]) => ({ ids: JSON.stringify([...new Set(list)]) })
  const tagsByPost = new Map<number, ReturnType<typeof toTagRes>[]>()
  for (const { postId, tag } of statements.tags.all(ids(rows.map((r) => r.id))))
    tagsByPost.set(postId, [...(tagsByPost.get(postId) ?? []), toTagRes(tag)])
  return {
    tags: tagsByPost,
    categories: new Map(statements.categories.all(ids(rows.map((r) => r.categoryId))).map((c) => [c.id, toCategoryRes(c)])),
    authors: new Map(
      statements.authors.all(ids(rows.flatMap((r) => (r.authorId ? [r.authorId] : [])))).map((a) => [a.id, toAuthorRes(a, null)]),
    ),
  }
}

function card(row: CardRow, embeds: Embeds): PostCard {
  return {
    id: row.id,
    authorId: row.authorId,
    categoryId: row.categoryId,
    language: row.language,
    slug: row.slug,
    alternateSlug: row.alternateSlug,
    title: row.title,
    summary: row.summary,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    canonicalUrl: row.canonicalUrl,
    robots: row.robots,
    coverImage: row.coverImage,
    coverAlt: row.coverAlt,
    ogTitle: row.ogTitle,
    ogDescription: row.ogDescription,
    ogImage: row.ogImage,
    answerSummary: row.answerSummary,
    author: row.author,
    relatedProductIds: row.relatedProductIds,
    reviewedAt: row.reviewedAt,
    publishedAt: row.publishedAt,
    createTime: row.createdAt,
    updatedTime: row.updatedAt,
    status: row.status,
    version: row.version,
    seoScore: row.seoScore,
    aeoScore: row.aeoScore,
    clapCount: row.clapCount,
    commentCount: row.commentCount,
    indexable: row.indexable,
    keyTakeaways: row.keyTakeaways,
    tags: embeds.tags.get(row.id) ?? [],
    category: embeds.categories.get(row.categoryId) ?? null,
    authorProfile: (row.authorId && embeds.authors.get(row.authorId)) || null,
  }
}

/**
 * Cards of one read snapshot, each post's built once however many lists show it; the embeds of
 * the posts not seen yet are read together (one query per table).
 */
export function cardsOf(db: Queryable): (rows: readonly CardRow[]) => PostCard[] {
  const made = new Map<number, PostCard>()
  return (rows) => {
    const missing = rows.filter((r) => !made.has(r.id))
    if (missing.length) {
      const embeds = embedsOf(db, missing)
      for (const row of missing) made.set(row.id, card(row, embeds))
    }
    return rows.map((r) => made.get(r.id)!)
  }
}

/** Posts as list cards, their tags, categories and authors read in one query each. */
export const toPostCards = (db: Queryable, rows: readonly CardRow[]): PostCard[] => cardsOf(db)(rows)

/** The posts a related-posts lookup ranges over: the discoverable ones of the source's category and language (`r`). */
const candidate = alias(posts, 'r')

/**
 * Related posts are the discoverable posts of the same language and category published just
 * before this one. Looking only backwards keeps a publish from changing the related lists of
 * every older post: only the next few newer posts of that category ever mention it.
 *
 * One statement for a whole batch: `sources` is a JSON array of the published posts'
 * `[id, language, categoryId, publishedAt]`, and for each SQLite seeks the category index to the
 * source's place and takes the next few (a correlated subquery per source, on the index).
 */
export const relatedStatements = preparedOnce((db) => {
  const before = db
    .select({ id: candidate.id })
    .from(candidate)
    .where(and(sameCategoryAsSource(candidate), ne(candidate.id, source(0)), publishedBefore(source(3), source(0), candidate)))
    .orderBy(desc(candidate.publishedAt), desc(candidate.id))
    .limit(RELATED_POSTS)
  return {
    published: db
      .select({ ...cardColumns, sourceId: sql<number>`${source(0)}` })
      .from(SOURCES)
      .innerJoin(posts, sql`${posts.id} in (${before})`)
      .prepare(),
    // A post with no publication time (a draft shown to its writer): the newest of its category.
    unpublished: db
      .select(cardColumns)
      .from(posts)
      .where(and(sameCategoryAsPlaceholders, ne(posts.id, sql.placeholder('id'))))
      .orderBy(desc(posts.publishedAt), desc(posts.id))
      .limit(RELATED_POSTS)
      .prepare(),
  }
})

/** The related posts of each row, newest first: one statement for the published ones, one per draft. */
function relatedRowsOf(db: Queryable, rows: readonly PostRow[]): CardRow[][] {
  const { published, unpublished } = relatedStatements(db)
  const dated = [...new Map(rows.filter((row) => row.publishedAt).map((row) => [row.id, row])).values()]
  const found = new Map<number, CardRow[]>()
  if (dated.length)
    for (const { sourceId, ...row } of published.all({ sources: sourcesOf(dated) }))
      found.set(sourceId, [...(found.get(sourceId) ?? []), row])
  // Every related post has a publication time (it is at or before the source's).
  const newestFirst = (a: CardRow, b: CardRow) => (a.publishedAt! < b.publishedAt! ? 1 : a.publishedAt! > b.publishedAt! ? -1 : b.id - a.id)
  return rows.map((row) =>
    row.publishedAt
      ? (found.get(row.id) ?? []).sort(newestFirst)
      : unpublished.all({ language: row.language, categoryId: row.categoryId, id: row.id }),
  )
}

/**
 * `BlogPostRes` of many posts at once, with their embedded taxonomy, author, related posts and
 * the resources they link to: the embeds of all of them and of their related posts, and their
 * resources, are read in one query per table, so a render pass costs a bounded number of queries per batch.
 */
export function toPostResMany(db: Queryable, rows: readonly PostRow[]): PostRes[] {
  const related = relatedRowsOf(db, rows)
  const everyRow = [...new Map([...rows, ...related.flat()].map((r): [number, CardRow] => [r.id, r])).values()]
  const embeds = embedsOf(db, everyRow)
  const products = relatedResources(
    db,
    rows.map((row) => row.relatedProductIds),
  )
  return rows.map((row, i) => ({
    ...card(row, embeds),
    contentHtml: row.contentHtml,
    contentText: row.contentText,
    faqBlocks: row.faqBlocks,
    toc: row.toc,
    relatedPosts: related[i]!.map((r) => card(r, embeds)),
    relatedProducts: products[i]!,
  }))
}

/** `BlogPostRes` of one post. */
export const toPostRes = (db: Queryable, row: PostRow): PostRes => toPostResMany(db, [row])[0]!

/** A post's schedule rows, compiled once per connection (every writer answer reads them). */
const schedulesOf = preparedOnce((db) =>
  db
    .select()
    .from(postSchedules)
    .where(eq(postSchedules.postId, sql.placeholder('postId')))
    .prepare(),
)

/** The pending schedule of a post. */
export function scheduleOf(db: Queryable, postId: number): PostSchedule {
  const rows = schedulesOf(db).all({ postId })
  const dueOf = (action: 'publish' | 'unpublish') => rows.find((r) => r.action === action)?.dueAt ?? null
  return { scheduledAt: dueOf('publish'), unpublishAt: dueOf('unpublish') }
}

/** The post response of the write verbs: the public shape plus the schedule only a token holder sees. */
export const toWriterPostRes = (db: Queryable, row: PostRow): WriterPostRes => ({ ...toPostRes(db, row), ...scheduleOf(db, row.id) })
