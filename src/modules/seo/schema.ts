import { t } from 'elysia'
import { Id, Language, LIMITS, optId, optText } from '../../http/schema.ts'

/**
 * The SEO engine's request and result as typebox schemas: each is the HTTP contract's validator
 * (posts/model.ts builds the check and save requests from `seoInputFields`; the answers are these
 * schemas) and, through `Static` in types.ts, the engine's type. One source, so the two cannot drift.
 */

/** `BlogFaqBlock` (spec §2.5), the same in requests and answers. */
export const FaqBlock = t.Object(
  {
    question: t.String({ maxLength: LIMITS.shortText }),
    answer: t.String({ maxLength: LIMITS.longText }),
    sortOrder: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()])),
  },
  { $id: 'BlogFaqBlock' },
)

const TextList = t.Optional(t.Union([t.Array(t.String({ maxLength: LIMITS.shortText }), { maxItems: LIMITS.listItems }), t.Null()]))
const FaqList = t.Optional(t.Union([t.Array(FaqBlock, { maxItems: LIMITS.faqBlocks }), t.Null()]))

/**
 * The effective post the rules judge (seo-rules.md §1): the check body laid over the stored post,
 * or the saved post at publish time. Blank optional fields may be '' or null/undefined. The check
 * and save requests take `contentHtml` optional (or Markdown instead); the engine gets it converted.
 */
export const seoInputFields = {
  id: optId,
  language: Language,
  title: t.String({ minLength: 1, maxLength: LIMITS.title, pattern: '\\S' }),
  contentHtml: t.String({ maxLength: LIMITS.contentHtml }),
  categoryId: Id,
  summary: optText(LIMITS.text),
  slug: optText(LIMITS.slug),
  alternateSlug: optText(LIMITS.slug),
  seoTitle: optText(LIMITS.shortText),
  seoDescription: optText(LIMITS.text),
  canonicalUrl: optText(LIMITS.url),
  indexable: t.Optional(t.Union([t.Boolean(), t.Null()])),
  coverAlt: optText(LIMITS.shortText),
  authorId: optId,
  answerSummary: optText(LIMITS.text),
  keyTakeaways: TextList,
  faqBlocks: FaqList,
  // Accepted by the check but not required (seo-rules.md §1).
  coverImage: optText(LIMITS.url),
  ogImage: optText(LIMITS.url),
  /** `YYYY-MM-DD HH:mm:ss` (UTC) or ISO 8601; blank means never reviewed. */
  reviewedAt: optText(40, 'a time like 2026-03-01 10:00:00 (UTC) or ISO 8601, or blank'),
  robots: optText(LIMITS.name),
  author: optText(LIMITS.name),
}
export const SeoInput = t.Object(seoInputFields)

const Str = t.String()
const Int = t.Integer()
const Score = t.Integer({ minimum: 0, maximum: 100 })

/** `BlogTocItemRes` (spec §2.5); `title` repeats `text` for the spec's check example. Derived text, not markup. */
export const TocItem = t.Object({ id: Str, text: Str, title: Str, level: t.Integer({ minimum: 1, maximum: 6 }) }, { $id: 'BlogTocItemRes' })

export const AutoFixType = t.Union([
  t.Literal('slug'),
  t.Literal('seo_title'),
  t.Literal('seo_description'),
  t.Literal('canonical_self'),
  t.Literal('cover_alt'),
])
export const TargetStep = t.Union([t.Literal('basic'), t.Literal('content'), t.Literal('seo'), t.Literal('aeo'), t.Literal('publish')])

/** `BlogSeoCheckItemRes` (spec §2.5); `key` and `severity` serve the spec's check example. */
export const SeoCheckItem = t.Object(
  {
    code: Str,
    /** Alias of `code` for the spec's check example. */
    key: Str,
    label: Str,
    message: Str,
    why: Str,
    fixAction: Str,
    passed: t.Boolean(),
    blocking: t.Boolean(),
    /** `pass`, `warning` (failed) or `error` (failed and blocking). */
    severity: t.Union([t.Literal('pass'), t.Literal('warning'), t.Literal('error')]),
    weight: Int,
    targetStep: TargetStep,
    targetField: Str,
    autoFixType: t.Union([AutoFixType, t.Null()]),
  },
  { $id: 'BlogSeoCheckItemRes' },
)

/** `BlogSeoCheckRes` (spec §2.5). */
export const SeoCheckResult = t.Object(
  {
    score: Score,
    aeoScore: Score,
    scoreVersion: Str,
    scoreSummary: Str,
    totalWeight: Int,
    passedWeight: Int,
    canPublish: t.Boolean(),
    generatedSlug: Str,
    generatedSeoTitle: Str,
    generatedSeoDescription: Str,
    generatedOgTitle: Str,
    generatedExcerpt: Str,
    toc: t.Array(TocItem),
    items: t.Array(SeoCheckItem),
  },
  { $id: 'BlogSeoCheckRes' },
)
