import { and, asc, desc, eq, inArray, lt, ne, or } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts, postTags, tags } from '../../db/schema/index.ts'
import { authorById, toAuthorRes } from '../authors/authors.ts'
import { relatedResources } from '../resources/catalogue.ts'
import { categoryById, toCategoryRes } from '../taxonomy/categories.ts'
import { toTagRes } from '../taxonomy/tags.ts'
import type { PostCard, PostRes } from './model.ts'
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

function card(db: Queryable, row: PostRow, tagsOfPost: ReturnType<typeof toTagRes>[]): PostCard {
  const category = categoryById(db, row.categoryId)
  const author = row.authorId ? authorById(db, row.authorId) : undefined
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
    tags: tagsOfPost,
    category: category ? toCategoryRes(category) : null,
    authorProfile: author && author.status === 1 ? toAuthorRes(author, null) : null,
  }
}

/** Posts as list cards, with their tags read in one query. */
export function toPostCards(db: Queryable, rows: readonly PostRow[]): PostCard[] {
  const tagsByPost = enabledTagsOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((row) => card(db, row, tagsByPost.get(row.id) ?? []))
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
