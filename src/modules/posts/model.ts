import { t } from 'elysia'
import { Id, Language, LIMITS, optId, optText } from '../../http/schema.ts'
import type { AuthorRes } from '../authors/model.ts'
import type { ResourceRes } from '../resources/model.ts'
import type { FaqBlock, TocItem } from '../seo/types.ts'
import type { CategoryRes, TagRes } from '../taxonomy/model.ts'

export const FaqBlockReq = t.Object({
  question: t.String({ maxLength: LIMITS.shortText }),
  answer: t.String({ maxLength: LIMITS.longText }),
  sortOrder: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()])),
})

const TextList = t.Optional(t.Union([t.Array(t.String({ maxLength: LIMITS.shortText }), { maxItems: LIMITS.listItems }), t.Null()]))
const FaqList = t.Optional(t.Union([t.Array(FaqBlockReq, { maxItems: LIMITS.faqBlocks }), t.Null()]))

/** Fields the SEO check request shares with the post request (spec §2.3). */
const checkedFields = {
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
}

/** Fields the check accepts but does not require (seo-rules.md §1), and the rest of the post request. */
const extraFields = {
  coverImage: optText(LIMITS.url),
  ogImage: optText(LIMITS.url),
  reviewedAt: optText(40),
  robots: optText(LIMITS.name),
  author: optText(LIMITS.name),
}

export const PostSaveReq = t.Object({
  ...checkedFields,
  ...extraFields,
  tagIds: t.Optional(t.Union([t.Array(Id, { maxItems: 50 }), t.Null()])),
  ogTitle: optText(LIMITS.shortText),
  ogDescription: optText(LIMITS.text),
  relatedProductIds: optText(LIMITS.text),
  status: t.Optional(t.Union([t.Literal(0), t.Literal(1), t.Literal(2), t.Null()])),
})
export type PostSaveReq = typeof PostSaveReq.static

export const SeoCheckReq = t.Object({ ...checkedFields, ...extraFields })
export type SeoCheckReq = typeof SeoCheckReq.static

/** `BlogPostRes` (spec §2.4). */
export interface PostRes {
  id: number
  authorId: number | null
  categoryId: number
  language: string
  slug: string
  alternateSlug: string
  title: string
  summary: string
  seoTitle: string
  seoDescription: string
  canonicalUrl: string
  robots: string
  coverImage: string
  coverAlt: string
  ogTitle: string
  ogDescription: string
  ogImage: string
  answerSummary: string
  author: string
  contentHtml: string
  contentText: string
  relatedProductIds: string
  reviewedAt: string | null
  publishedAt: string | null
  createTime: string
  updatedTime: string
  status: number
  seoScore: number
  aeoScore: number
  clapCount: number
  commentCount: number
  indexable: boolean
  keyTakeaways: string[]
  faqBlocks: FaqBlock[]
  toc: TocItem[]
  tags: TagRes[]
  category: CategoryRes | null
  authorProfile: AuthorRes | null
  relatedPosts: PostCard[]
  /** The resources of `relatedProductIds` in that order, offline ones left out (docs/resources.md). */
  relatedProducts: ResourceRes[]
}

/**
 * A post in a list or in `relatedPosts`: the post response without the body fields
 * (`contentHtml`, `contentText`, `toc`, `faqBlocks`, `relatedPosts`, `relatedProducts`), which
 * a card never shows and which would make every list page carry whole articles.
 */
export type PostCard = Omit<PostRes, 'contentHtml' | 'contentText' | 'toc' | 'faqBlocks' | 'relatedPosts' | 'relatedProducts'>

/** A post's pending scheduled transitions (docs/agents.md "Schedules"); null when none. */
export interface PostSchedule {
  scheduledAt: string | null
  unpublishAt: string | null
}

/**
 * The post response a token holder gets from the write verbs: the public shape plus its
 * schedule. The public detail (and every artifact) never carries the schedule.
 */
export type WriterPostRes = PostRes & PostSchedule

/** The publish response (spec §2.4): the post plus what the publish refreshed. */
export type PublishRes = WriterPostRes & { sitemapUpdated: boolean; rssUpdated: boolean; webhookQueued: boolean }

const ScheduleTime = t.Optional(
  t.Union([t.String({ maxLength: 40, description: 'a UTC time like 2026-03-01 10:00:00, or null to cancel' }), t.Null()]),
)

/** `POST posts/{id}/schedule`: an absent field keeps its schedule, null cancels it. */
export const ScheduleReq = t.Object({ publishAt: ScheduleTime, unpublishAt: ScheduleTime })
export type ScheduleReq = typeof ScheduleReq.static

/** Preview lifetimes in seconds: one hour by default, at most seven days. */
export const PREVIEW_SECONDS = { default: 3600, max: 7 * 86_400 } as const

/** `POST posts/{id}/preview`. */
export const PreviewReq = t.Object({
  expiresIn: t.Optional(
    t.Union([t.Integer({ minimum: 1, maximum: PREVIEW_SECONDS.max, description: `seconds from 1 to ${PREVIEW_SECONDS.max}` }), t.Null()]),
  ),
})
export type PreviewReq = typeof PreviewReq.static

/** A signed, expiring read of a post's stored state (docs/agents.md "Previews"). */
export interface PreviewRes {
  postId: number
  token: string
  url: string
  expiresAt: string
}
