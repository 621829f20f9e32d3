import { and, asc, desc, eq, inArray, lt, ne, or } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { authors, categories, posts, postSchedules, postTags, tags } from '../../db/schema/index.ts'
import { toAuthorRes } from '../authors/authors.ts'
import { relatedResources } from '../resources/catalogue.ts'
import { toCategoryRes } from '../taxonomy/categories.ts'
import { toTagRes } from '../taxonomy/tags.ts'
import type { PostCard, PostRes, PostSchedule, WriterPostRes } from './model.ts'
import type { PostRow } from './repo.ts'
import { discoverable } from './visibility.ts'

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

/**
 * Related posts are the discoverable posts of the same language and category published just
 * before this one. Looking only backwards keeps a publish from changing the related lists of
 * every older post: only the next few newer posts of that category ever mention it.
 */
function relatedRows(db: Queryable, row: PostRow): PostRow[] {
  const before = row.publishedAt
    ? or(lt(posts.publishedAt, row.publishedAt), and(eq(posts.publishedAt, row.publishedAt), lt(posts.id, row.id)))
    : undefined
  return db
    .select()
    .from(posts)
    .where(and(discoverable, eq(posts.language, row.language), eq(posts.categoryId, row.categoryId), ne(posts.id, row.id), before))
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .limit(RELATED_POSTS)
    .all()
}

/** `BlogPostRes` of one post, with its embedded taxonomy, author, related posts and the resources it links to. */
export function toPostRes(db: Queryable, row: PostRow): PostRes {
  const [summary] = toPostCards(db, [row])
  return {
    ...summary!,
    contentHtml: row.contentHtml,
    contentText: row.contentText,
    faqBlocks: row.faqBlocks,
    toc: row.toc,
    relatedPosts: toPostCards(db, relatedRows(db, row)),
    relatedProducts: relatedResources(db, row.relatedProductIds),
  }
}

/** The pending schedule of a post. */
export function scheduleOf(db: Queryable, postId: number): PostSchedule {
  const rows = db.select().from(postSchedules).where(eq(postSchedules.postId, postId)).all()
  const dueOf = (action: 'publish' | 'unpublish') => rows.find((r) => r.action === action)?.dueAt ?? null
  return { scheduledAt: dueOf('publish'), unpublishAt: dueOf('unpublish') }
}

/** The post response of the write verbs: the public shape plus the schedule only a token holder sees. */
export const toWriterPostRes = (db: Queryable, row: PostRow): WriterPostRes => ({ ...toPostRes(db, row), ...scheduleOf(db, row.id) })
