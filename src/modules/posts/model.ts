import { t } from 'elysia'
import { Id, Language, LIMITS, optText, pageOf } from '../../http/schema.ts'
import { AuthorRes } from '../authors/model.ts'
import { ResourceRes } from '../resources/model.ts'
import { AutoFixType, FaqBlock, SeoCheckResult, seoInputFields, TocItem } from '../seo/schema.ts'
import { CategoryRes, TagRes } from '../taxonomy/model.ts'

export { SeoCheckResult as SeoCheckRes } from '../seo/schema.ts'

/** The SEO check's input (seo/schema.ts) as a request: its content as HTML or as Markdown (content.ts: exactly one). */
const checkedFields = {
  ...seoInputFields,
  contentHtml: t.Optional(seoInputFields.contentHtml),
  contentMarkdown: t.Optional(t.String({ maxLength: LIMITS.contentMarkdown })),
}

export const PostSaveReq = t.Object(
  {
    ...checkedFields,
    tagIds: t.Optional(t.Union([t.Array(Id, { maxItems: 50 }), t.Null()])),
    ogTitle: optText(LIMITS.shortText),
    ogDescription: optText(LIMITS.text),
    relatedProductIds: optText(LIMITS.text, 'comma-separated ids of existing business resources'),
    status: t.Optional(t.Union([t.Literal(0), t.Literal(1), t.Literal(2), t.Null()])),
    version: t.Optional(t.Union([Id, t.Null()], { description: 'the version this edit is based on; like If-Match (docs/agents.md)' })),
  },
  { $id: 'BlogPostSaveReq' },
)
export type PostSaveReq = typeof PostSaveReq.static

export const SeoCheckReq = t.Object(checkedFields, { $id: 'BlogSeoCheckReq' })
export type SeoCheckReq = typeof SeoCheckReq.static

const Str = t.String()
const NullableStr = t.Union([t.String(), t.Null()])
const Score = t.Integer({ minimum: 0, maximum: 100 })

const cardFields = {
  id: Id,
  authorId: t.Union([Id, t.Null()]),
  categoryId: Id,
  language: Language,
  slug: Str,
  alternateSlug: Str,
  title: Str,
  summary: Str,
  seoTitle: Str,
  seoDescription: Str,
  canonicalUrl: Str,
  robots: Str,
  coverImage: Str,
  coverAlt: Str,
  ogTitle: Str,
  ogDescription: Str,
  ogImage: Str,
  answerSummary: Str,
  author: Str,
  relatedProductIds: Str,
  reviewedAt: NullableStr,
  publishedAt: NullableStr,
  createTime: Str,
  updatedTime: Str,
  status: t.Integer({ minimum: 0, maximum: 2, description: '0 draft, 1 published, 2 offline' }),
  version: t.Integer({ minimum: 1, description: 'grows with every edit or status change; send it back as If-Match (docs/agents.md)' }),
  seoScore: Score,
  aeoScore: Score,
  clapCount: t.Integer({ minimum: 0 }),
  commentCount: t.Integer({ minimum: 0 }),
  indexable: t.Boolean(),
  keyTakeaways: t.Array(Str),
  tags: t.Array(TagRes),
  category: t.Union([CategoryRes, t.Null()]),
  authorProfile: t.Union([AuthorRes, t.Null()]),
}

/**
 * A post in a list or in `relatedPosts`: the post response without the body fields
 * (`contentHtml`, `contentText`, `toc`, `faqBlocks`, `relatedPosts`, `relatedProducts`), which
 * a card never shows and which would make every list page carry whole articles.
 */
export const PostCard = t.Object(cardFields, { $id: 'BlogPostCard' })
export type PostCard = typeof PostCard.static

const postFields = {
  ...cardFields,
  contentHtml: Str,
  contentText: t.String({ description: 'plain text of the body (decoded: text, never markup)' }),
  faqBlocks: t.Array(FaqBlock),
  toc: t.Array(TocItem),
  relatedPosts: t.Array(PostCard),
  /** The resources of `relatedProductIds` in that order, offline ones left out (docs/resources.md). */
  relatedProducts: t.Array(ResourceRes),
}

/** `BlogPostRes` (spec §2.4). */
export const PostRes = t.Object(postFields, { $id: 'BlogPostRes' })
export type PostRes = typeof PostRes.static

const UtcTime = (what: string) => t.Union([t.String({ description: `UTC YYYY-MM-DD HH:mm:ss when the post will be ${what}` }), t.Null()])

/** A post's pending scheduled transitions (docs/agents.md "Schedules"); null when none. */
const scheduleFields = { scheduledAt: UtcTime('published'), unpublishAt: UtcTime('taken offline') }
const PostSchedule = t.Object(scheduleFields)
export type PostSchedule = typeof PostSchedule.static

const writerPostFields = { ...postFields, ...scheduleFields }

/**
 * The post response a token holder gets from the write verbs: the public shape plus its
 * schedule. The public detail (and every artifact) never carries the schedule.
 */
export const WriterPostRes = t.Object(writerPostFields, { $id: 'BlogWriterPostRes' })
export type WriterPostRes = typeof WriterPostRes.static

/** The publish response (spec §2.4): the post plus what the publish refreshed. */
export const PublishRes = t.Object(
  { ...writerPostFields, sitemapUpdated: t.Boolean(), rssUpdated: t.Boolean(), webhookQueued: t.Boolean() },
  { $id: 'BlogPublishRes' },
)
export type PublishRes = typeof PublishRes.static

export const PostPage = pageOf(PostCard, 'PageBlogPostRes')

/** posts/{id}/autofix (docs/agents.md, "Autofix"): the fixes applied, the new check, the post as stored. */
export const AutofixRes = t.Object(
  {
    applied: t.Array(AutoFixType, { description: 'the auto-fixes that changed the post, in the order applied' }),
    check: SeoCheckResult,
    post: PostRes,
  },
  { $id: 'BlogAutofixRes' },
)

const revisionFields = {
  postId: Id,
  version: t.Integer({ minimum: 1, description: 'the post version this save produced; the revision number' }),
  createTime: Str,
  tokenName: Str,
  seoScore: Score,
  aeoScore: Score,
  changedFields: t.Array(Str, { description: 'fields this save changed (every field for the save that created the post)' }),
  title: Str,
  status: t.Integer({ minimum: 0, maximum: 2 }),
}

/** A revision in `GET /api/admin/blog/posts/{id}/revisions` (docs/agents.md, "Revisions"). */
export const RevisionSummaryRes = t.Object(revisionFields, { $id: 'BlogRevisionSummaryRes' })

/** One revision with its stored fields and a field-level diff against the post now. */
export const RevisionDetailRes = t.Object(
  {
    ...revisionFields,
    fields: t.Record(Str, t.Unknown(), { description: 'the editable fields as this save left them (tagIds included)' }),
    currentVersion: t.Integer({ minimum: 1 }),
    diff: t.Array(t.Object({ field: Str, revision: t.Unknown(), current: t.Unknown() })),
  },
  { $id: 'BlogRevisionDetailRes' },
)
const ScheduleTime = t.Optional(
  t.Union([t.String({ maxLength: 40, description: 'a UTC time like 2026-03-01 10:00:00, or null to cancel' }), t.Null()]),
)

/** `POST posts/{id}/schedule`: an absent field keeps its schedule, null cancels it. */
export const ScheduleReq = t.Object({ publishAt: ScheduleTime, unpublishAt: ScheduleTime }, { $id: 'BlogScheduleReq' })
export type ScheduleReq = typeof ScheduleReq.static

/** Preview lifetimes in seconds: one hour by default, at most seven days. */
export const PREVIEW_SECONDS = { default: 3600, max: 7 * 86_400 } as const

/** `POST posts/{id}/preview`. */
export const PreviewReq = t.Object(
  {
    expiresIn: t.Optional(
      t.Union([t.Integer({ minimum: 1, maximum: PREVIEW_SECONDS.max, description: `seconds from 1 to ${PREVIEW_SECONDS.max}` }), t.Null()]),
    ),
  },
  { $id: 'BlogPreviewReq' },
)
export type PreviewReq = typeof PreviewReq.static

/** A signed, expiring read of a post's stored state (docs/agents.md "Previews"). */
export const PreviewRes = t.Object(
  {
    postId: Id,
    token: Str,
    url: t.String({ description: 'anyone holding it reads the stored post (JSON, the public detail shape) until expiresAt' }),
    pageUrl: t.String({ description: 'the same preview as a page of the public site (HTML, noindex, never cached)' }),
    expiresAt: t.String({ description: 'UTC YYYY-MM-DD HH:mm:ss' }),
  },
  { $id: 'BlogPreviewRes' },
)
export type PreviewRes = typeof PreviewRes.static
