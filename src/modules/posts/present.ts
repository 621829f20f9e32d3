import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { authors, categories, posts, postSchedules, postTags, tags } from '../../db/schema/index.ts'
import { toAuthorRes } from '../authors/authors.ts'
import { relatedResources } from '../resources/catalogue.ts'
import { toCategoryRes } from '../taxonomy/categories.ts'
import { toTagRes } from '../taxonomy/tags.ts'
import type { PostCard, PostRes, PostSchedule, WriterPostRes } from './model.ts'
import type { PostRow } from './repo.ts'
import { discoverable, publishedBefore } from './visibility.ts'

/** How many older posts of the same category a post response lists as related. */
export const RELATED_POSTS = 3

function enabledTagsOf(db: Queryable, postIds: readonly number[]) {
  const byPost = new Map<number, ReturnType<typeof toTagRes>[]>()
  if (!postIds.length) return byPost
  const rows = db
    .select({ postId: postTags.postId, tag: tags })
    .from(postTags)
    .innerJoin(tags, eq(tags.id, postTags.tagId))
    .where(and(inArray(postTags.postId, [...postIds]), eq(tags.status, 1)))
    .orderBy(asc(tags.id))
    .all()
  for (const { postId, tag } of rows) byPost.set(postId, [...(byPost.get(postId) ?? []), toTagRes(tag)])
  return byPost
}

/** What a card embeds, read for a whole page at once: one query per table, not per card. */
interface Embeds {
  tags: Map<number, ReturnType<typeof toTagRes>[]>
  categories: Map<number, ReturnType<typeof toCategoryRes>>
  authors: Map<number, ReturnType<typeof toAuthorRes>>
}

function embedsOf(db: Queryable, rows: readonly PostRow[]): Embeds {
  const categoryIds = [...new Set(rows.map((r) => r.categoryId))]
  const authorIds = [...new Set(rows.flatMap((r) => (r.authorId ? [r.authorId] : [])))]
  return {
    tags: enabledTagsOf(
      db,
      rows.map((r) => r.id),
    ),
    categories: new Map(
      (categoryIds.length ? db.select().from(categories).where(inArray(categories.id, categoryIds)).all() : []).map((c) => [
        c.id,
        toCategoryRes(c),
      ]),
    ),
    // Only enabled authors are shown publicly.
    authors: new Map(
      (authorIds.length
        ? db
            .select()
            .from(authors)
            .where(and(inArray(authors.id, authorIds), eq(authors.status, 1)))
            .all()
        : []
      ).map((a) => [a.id, toAuthorRes(a, null)]),
    ),
  }
}

function card(row: PostRow, embeds: Embeds): PostCard {
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

/** Posts as list cards, their tags, categories and authors read in one query each. */
export function toPostCards(db: Queryable, rows: readonly PostRow[]): PostCard[] {
  const embeds = embedsOf(db, rows)
  return rows.map((row) => card(row, embeds))
}

const relatedQuery = (db: Queryable, before: SQL | undefined) =>
  db
    .select()
    .from(posts)
    .where(
      and(
        discoverable,
        eq(posts.language, sql.placeholder('language')),
        eq(posts.categoryId, sql.placeholder('categoryId')),
        ne(posts.id, sql.placeholder('id')),
        before,
      ),
    )
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .limit(RELATED_POSTS)

/**
 * Related posts are the discoverable posts of the same language and category published just
 * before this one. Looking only backwards keeps a publish from changing the related lists of
 * every older post: only the next few newer posts of that category ever mention it.
 * The statements are prepared once per call and reused for every post of a batch.
 */
function relatedRowsOf(db: Queryable): (row: PostRow) => PostRow[] {
  const at = sql.placeholder('publishedAt')
  const published = relatedQuery(db, publishedBefore(at, sql.placeholder('id'))).prepare()
  const unpublished = relatedQuery(db, undefined).prepare()
  return (row) => {
    const values = { language: row.language, categoryId: row.categoryId, id: row.id }
    return row.publishedAt ? published.all({ ...values, publishedAt: row.publishedAt }) : unpublished.all(values)
  }
}

/**
 * `BlogPostRes` of many posts at once, with their embedded taxonomy, author, related posts and
 * the resources they link to: the embeds of all of them and of their related posts are read in
 * one query per table, so a render pass costs a bounded number of queries per batch.
 */
export function toPostResMany(db: Queryable, rows: readonly PostRow[]): PostRes[] {
  const relatedOf = relatedRowsOf(db)
  const related = rows.map(relatedOf)
  const everyRow = [...new Map([...rows, ...related.flat()].map((r) => [r.id, r])).values()]
  const embeds = embedsOf(db, everyRow)
  return rows.map((row, i) => ({
    ...card(row, embeds),
    contentHtml: row.contentHtml,
    contentText: row.contentText,
    faqBlocks: row.faqBlocks,
    toc: row.toc,
    relatedPosts: related[i]!.map((r) => card(r, embeds)),
    relatedProducts: relatedResources(db, row.relatedProductIds),
  }))
}

/** `BlogPostRes` of one post. */
export const toPostRes = (db: Queryable, row: PostRow): PostRes => toPostResMany(db, [row])[0]!

/** The pending schedule of a post. */
export function scheduleOf(db: Queryable, postId: number): PostSchedule {
  const rows = db.select().from(postSchedules).where(eq(postSchedules.postId, postId)).all()
  const dueOf = (action: 'publish' | 'unpublish') => rows.find((r) => r.action === action)?.dueAt ?? null
  return { scheduledAt: dueOf('publish'), unpublishAt: dueOf('unpublish') }
}

/** The post response of the write verbs: the public shape plus the schedule only a token holder sees. */
export const toWriterPostRes = (db: Queryable, row: PostRow): WriterPostRes => ({ ...toPostRes(db, row), ...scheduleOf(db, row.id) })
