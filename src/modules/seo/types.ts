import type { Language } from '../../shared/language.ts'

/** A FAQ block of the spec (§2.5). */
export interface FaqBlock {
  question: string
  answer: string
  sortOrder?: number | null
}

/**
 * The effective post the rules judge (seo-rules.md §1): the check body laid over the stored post,
 * or the saved post at publish time. Blank optional fields may be '' or null/undefined.
 */
export interface SeoInput {
  id?: number | null
  language: Language
  title: string
  contentHtml: string
  categoryId: number
  summary?: string | null
  slug?: string | null
  alternateSlug?: string | null
  coverImage?: string | null
  coverAlt?: string | null
  ogImage?: string | null
  authorId?: number | null
  author?: string | null
  seoTitle?: string | null
  seoDescription?: string | null
  canonicalUrl?: string | null
  robots?: string | null
  indexable?: boolean | null
  answerSummary?: string | null
  keyTakeaways?: readonly string[] | null
  faqBlocks?: readonly FaqBlock[] | null
  /** `YYYY-MM-DD HH:mm:ss` (UTC) or ISO 8601; blank means never reviewed. */
  reviewedAt?: string | null
}

/** A non-deleted post that owns a slug, as the world reports it. */
export interface WorldPost {
  id: number
  language: Language
  slug: string
  alternateSlug: string
}

/**
 * What the rules may know about the rest of the site (seo-rules.md §1). The engine does no I/O:
 * the caller reads these facts before the check (media existence is prefetched into `mediaKeys`)
 * and answers the slug look-ups from a snapshot or a synchronous SQLite read.
 */
export interface SeoWorld {
  siteUrl: string
  mediaUrl: string
  /** Keys (paths below MEDIA_URL, no leading slash) that exist in the media store. */
  mediaKeys: ReadonlySet<string>
  /** The non-deleted post of `language` whose current or previous slug equals `slug` (case-insensitive). */
  postBySlug(language: Language, slug: string): WorldPost | undefined
  /** The non-deleted post of `language` whose current slug equals `slug` (for hreflang pairing). */
  postByCurrentSlug(language: Language, slug: string): WorldPost | undefined
  authorStatus(id: number): number | undefined
  category(id: number): { nameEn: string; nameZh: string } | undefined
}

export type TargetStep = 'basic' | 'content' | 'seo' | 'aeo' | 'publish'
export type AutoFixType = 'slug' | 'seo_title' | 'seo_description' | 'canonical_self' | 'cover_alt'

export interface TocItem {
  id: string
  text: string
  /** Alias of `text`: the spec's check example names it `title`. */
  title: string
  level: number
}

export interface SeoCheckItem {
  code: string
  /** Alias of `code` for the spec's check example. */
  key: string
  label: string
  message: string
  why: string
  fixAction: string
  passed: boolean
  blocking: boolean
  /** `pass`, `warning` (failed) or `error` (failed and blocking). */
  severity: 'pass' | 'warning' | 'error'
  weight: number
  targetStep: TargetStep
  targetField: string
  autoFixType: AutoFixType | null
}

/** `BlogSeoCheckRes` of the spec (§2.5). */
export interface SeoCheckResult {
  score: number
  aeoScore: number
  scoreVersion: string
  scoreSummary: string
  totalWeight: number
  passedWeight: number
  canPublish: boolean
  generatedSlug: string
  generatedSeoTitle: string
  generatedSeoDescription: string
  generatedOgTitle: string
  generatedExcerpt: string
  toc: TocItem[]
  items: SeoCheckItem[]
}
