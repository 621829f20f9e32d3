import type { Ctx } from '../../context.ts'
import type { Caller } from '../tokens/tokens.ts'
import type { AutofixRes } from './model.ts'
import { toPostRes } from './present.ts'
import { livePost } from './repo.ts'
import { savePost } from './save.ts'
import { runAutofix, runCheck, seoInputOf } from './seo.ts'

/** The answer's schema (`AutofixRes` in model.ts) is the contract; this is its type. */
type AutofixAnswer = typeof AutofixRes.static

/**
 * `POST posts/{id}/autofix`: applies every `autoFixType` suggestion of the stored post's check
 * (seo/autofix.ts) and saves the result as any save does (a new version and revision; a published
 * post is re-checked by the gate, and saving it needs blog:publish). The save is conditional on
 * the version the fixes were computed from, so a concurrent edit is never overwritten (412).
 */
export async function autofixPost(ctx: Ctx, id: number, caller: Caller): Promise<AutofixAnswer> {
  const stored = livePost(ctx.db, id)
  const fixed = await runAutofix(ctx, seoInputOf(stored))
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
  return { applied: fixed.applied, check: await runCheck(ctx, seoInputOf(livePost(ctx.db, id))), post }
}
