import type { Ctx } from '../../context.ts'
import { check } from '../seo/index.ts'
import { autofix } from '../seo/autofix.ts'
import type { SeoCheckResult } from '../seo/types.ts'
import type { Caller } from '../tokens/tokens.ts'
import type { AutofixRes } from './model.ts'
import { toPostRes } from './present.ts'
import { livePost, type PostRow } from './repo.ts'
import { savePost } from './save.ts'
import { existingMediaKeys, seoInputOf, sqliteWorld } from './seo.ts'

/** The answer's schema (`AutofixRes` in model.ts) is the contract; this is its type. */
type AutofixAnswer = typeof AutofixRes.static

/** The stored post's check, as posts/check would report it. */
async function checkStored(ctx: Ctx, row: PostRow): Promise<SeoCheckResult> {
  const input = seoInputOf(row)
  return check(input, sqliteWorld(ctx, ctx.db, await existingMediaKeys(ctx, input)), ctx.clock())
}

/**
 * `POST posts/{id}/autofix`: applies every `autoFixType` suggestion of the stored post's check
 * (seo/autofix.ts) and saves the result as any save does (a new version and revision; a published
 * post is re-checked by the gate, and saving it needs blog:publish). The save is conditional on
 * the version the fixes were computed from, so a concurrent edit is never overwritten (412).
 */
export async function autofixPost(ctx: Ctx, id: number, caller: Caller): Promise<AutofixAnswer> {
  const stored = livePost(ctx.db, id)
  const input = seoInputOf(stored)
  const fixed = autofix(input, sqliteWorld(ctx, ctx.db, await existingMediaKeys(ctx, input)), ctx.clock())
  if (!fixed.applied.length) return { applied: [], check: fixed.result, post: toPostRes(ctx.db, stored) }
  const { slug, seoTitle, seoDescription, canonicalUrl, coverAlt } = fixed.input
  const post = await savePost(ctx, caller, {
    id,
    version: stored.version,
    language: stored.language,
    title: stored.title,
    categoryId: stored.categoryId,
    contentHtml: stored.contentHtml,
    slug,
    seoTitle,
    seoDescription,
    canonicalUrl,
    coverAlt,
  })
  return { applied: fixed.applied, check: await checkStored(ctx, livePost(ctx.db, id)), post }
}
