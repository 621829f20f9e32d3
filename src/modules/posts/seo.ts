import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { authors, categories } from '../../db/schema/index.ts'
import { DomainError } from '../../shared/errors.ts'
import { check, failedBlockingCodes, mediaKeysOf } from '../seo/index.ts'
import type { SeoCheckResult, SeoInput, SeoWorld, WorldPost } from '../seo/types.ts'
import { postByCurrentSlug, slugHolder, type PostRow } from './repo.ts'

/** Publishing refused while a blocking SEO item fails (spec §7, seo-rules.md §3). */
export class SeoBlocked extends DomainError {
  constructor(result: SeoCheckResult) {
    const failedItems = failedBlockingCodes(result)
    const failures = result.items
      .filter((item) => item.blocking && !item.passed)
      .map(({ code, targetField, message, fixAction, autoFixType }) => ({ code, targetField, message, fixAction, autoFixType }))
    super('BLOG_SEO_BLOCKED', 400, `The draft cannot be published because blocking checks failed: ${failedItems.join(', ')}.`, {
      canPublish: false,
      failedItems,
      failures,
      score: result.score,
      aeoScore: result.aeoScore,
    })
  }
}

const worldPost = (row: PostRow | undefined): WorldPost | undefined =>
  row && { id: row.id, language: row.language, slug: row.slug, alternateSlug: row.alternateSlug }

/** Which of the input's media keys exist in the store; asked before the (synchronous) check. */
export async function existingMediaKeys(ctx: Ctx, input: SeoInput): Promise<Set<string>> {
  const keys = mediaKeysOf(input, ctx.config.mediaUrl)
  const found = await Promise.all(keys.map(async (key) => ((await ctx.mediaExists(key)) ? key : null)))
  return new Set(found.filter((key): key is string => key !== null))
}

/** The SEO world read from SQLite, inside the caller's transaction when there is one. */
export function sqliteWorld(ctx: Ctx, db: Queryable, mediaKeys: ReadonlySet<string>): SeoWorld {
  return {
    siteUrl: ctx.config.siteUrl,
    mediaUrl: ctx.config.mediaUrl,
    mediaKeys,
    postBySlug: (language, slug) => worldPost(slugHolder(db, language, slug, null)),
    postByCurrentSlug: (language, slug) => worldPost(postByCurrentSlug(db, language, slug)),
    authorStatus: (id) => db.select({ status: authors.status }).from(authors).where(eq(authors.id, id)).get()?.status,
    category: (id) =>
      db.select({ nameEn: categories.nameEn, nameZh: categories.nameZh }).from(categories).where(eq(categories.id, id)).get(),
  }
}

/** The one function between the post lifecycle and the rule engine: check, and refuse to publish. */
export function checkPublishable(ctx: Ctx, db: Queryable, input: SeoInput, mediaKeys: ReadonlySet<string>): SeoCheckResult {
  const result = check(input, sqliteWorld(ctx, db, mediaKeys), ctx.clock())
  if (!result.canPublish) throw new SeoBlocked(result)
  return result
}

/** The stored post as the rules read it. */
export const seoInputOf = (row: PostRow): SeoInput => ({
  id: row.id,
  language: row.language,
  title: row.title,
  contentHtml: row.contentHtml,
  categoryId: row.categoryId,
  summary: row.summary,
  slug: row.slug,
  alternateSlug: row.alternateSlug,
  coverImage: row.coverImage,
  coverAlt: row.coverAlt,
  ogImage: row.ogImage,
  authorId: row.authorId,
  author: row.author,
  seoTitle: row.seoTitle,
  seoDescription: row.seoDescription,
  canonicalUrl: row.canonicalUrl,
  robots: row.robots,
  indexable: row.indexable,
  answerSummary: row.answerSummary,
  keyTakeaways: row.keyTakeaways,
  faqBlocks: row.faqBlocks,
  reviewedAt: row.reviewedAt,
})
