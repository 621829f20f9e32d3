import type { Static } from '@sinclair/typebox'
import type { Language } from '../../shared/language.ts'
import type * as schema from './schema.ts'

/** A FAQ block of the spec (§2.5). */
export type FaqBlock = Static<typeof schema.FaqBlock>

/** The effective post the rules judge (seo-rules.md §1): see `SeoInput` in schema.ts. */
export type SeoInput = Static<typeof schema.SeoInput>

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

export type TargetStep = Static<typeof schema.TargetStep>
export type AutoFixType = Static<typeof schema.AutoFixType>
export type TocItem = Static<typeof schema.TocItem>
export type SeoCheckItem = Static<typeof schema.SeoCheckItem>
/** `BlogSeoCheckRes` of the spec (§2.5). */
export type SeoCheckResult = Static<typeof schema.SeoCheckResult>
