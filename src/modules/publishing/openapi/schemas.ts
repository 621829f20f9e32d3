import { t, type TSchema } from 'elysia'

/**
 * Response shapes of the spec (§2) as typebox values: the OpenAPI document is generated from
 * them, and the tests check real API answers against them, so the description cannot drift
 * from what the service sends.
 */
const Str = t.String()
const Int = t.Integer()
const NullableStr = t.Union([t.String(), t.Null()])

export const FaqBlock = t.Object({ question: Str, answer: Str, sortOrder: t.Optional(t.Union([Int, t.Null()])) })
export const TocItem = t.Object({ id: Str, text: Str, title: t.Optional(Str), level: Int })

export const CategoryRes = t.Object({
  id: Int,
  slug: Str,
  nameEn: Str,
  nameZh: Str,
  descriptionEn: Str,
  descriptionZh: Str,
  sort: Int,
  status: Int,
})

export const TagRes = t.Object({ id: Int, slug: Str, nameEn: Str, nameZh: Str, language: Str, status: Int })

export const AuthorRes = t.Object({
  id: Int,
  slug: Str,
  language: Str,
  name: Str,
  title: Str,
  bio: Str,
  avatar: Str,
  credentials: Str,
  socialLinks: Str,
  status: Int,
  postCount: t.Union([Int, t.Null()], { description: 'Discoverable linked posts; null inside a post response.' }),
})

const cardFields = {
  id: Int,
  authorId: t.Union([Int, t.Null()]),
  categoryId: Int,
  language: Str,
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
  status: Int,
  seoScore: Int,
  aeoScore: Int,
  clapCount: Int,
  commentCount: Int,
  indexable: t.Boolean(),
  keyTakeaways: t.Array(Str),
  tags: t.Array(TagRes),
  category: t.Union([CategoryRes, t.Null()]),
  authorProfile: t.Union([AuthorRes, t.Null()]),
}

/** A post in a list or in `relatedPosts`: the post response without its body fields. */
export const PostCard = t.Object(cardFields)

export const PostRes = t.Object({
  ...cardFields,
  contentHtml: Str,
  contentText: Str,
  faqBlocks: t.Array(FaqBlock),
  toc: t.Array(TocItem),
  relatedPosts: t.Array(PostCard),
})

/** The post response of the write verbs: the public shape plus the schedule (docs/agents.md). */
export const WriterPostRes = t.Object({
  ...PostRes.properties,
  scheduledAt: t.Union([t.String({ description: 'UTC YYYY-MM-DD HH:mm:ss when the post will be published' }), t.Null()]),
  unpublishAt: t.Union([t.String({ description: 'UTC YYYY-MM-DD HH:mm:ss when the post will be taken offline' }), t.Null()]),
})

export const PreviewRes = t.Object({
  postId: Int,
  token: Str,
  url: t.String({ description: 'anyone holding it reads the stored post until expiresAt' }),
  expiresAt: Str,
})

export const PublishRes = t.Object({
  ...WriterPostRes.properties,
  sitemapUpdated: t.Boolean(),
  rssUpdated: t.Boolean(),
  webhookQueued: t.Boolean(),
})

export const pageOf = (item: TSchema) => t.Object({ total: Int, size: Int, current: Int, records: t.Array(item) })

export const SeoCheckItem = t.Object({
  code: Str,
  key: t.Optional(Str),
  label: Str,
  message: Str,
  why: Str,
  fixAction: Str,
  passed: t.Boolean(),
  blocking: t.Boolean(),
  severity: t.Optional(Str),
  weight: Int,
  targetStep: Str,
  targetField: Str,
  autoFixType: t.Optional(NullableStr),
})

export const SeoCheckRes = t.Object({
  score: Int,
  aeoScore: Int,
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
})

export const PublicCommentRes = t.Object({
  id: Int,
  postId: Int,
  parentId: t.Union([Int, t.Null()]),
  authorName: Str,
  content: Str,
  createTime: Str,
  status: Int,
  statusText: Str,
})

export const EngagementRes = t.Object({ postId: Int, clapCount: Int, commentCount: Int, comments: t.Array(PublicCommentRes) })

export const ResourceRes = t.Object({
  id: Int,
  productId: Str,
  nameEn: Str,
  nameZh: Str,
  descriptionEn: Str,
  descriptionZh: Str,
  categoryCode: Str,
  categoryName: Str,
  stock: Int,
  cnyPrice: Int,
  usdtPrice: Int,
  status: Int,
})

export const ResourceCategoryRes = t.Recursive((self) =>
  t.Object({ id: Int, code: Str, nameEn: Str, nameZh: Str, iconUrl: Str, children: t.Array(self) }),
)

export const PublicationSettingsRes = t.Object({ iconUrl: Str, iconAlt: Str })

export const CommentReq = t.Object({
  authorName: Str,
  content: Str,
  authorEmail: t.Optional(Str),
  parentId: t.Optional(t.Union([Int, t.Null()])),
})

export const ReactionReq = t.Object({ reactionKey: Str, clientKey: t.Optional(Str), count: t.Optional(Int) })

export const ResourceSearchReq = t.Object({
  current: t.Optional(Int),
  size: t.Optional(Int),
  keywords: t.Optional(Str),
  categoryCode: t.Optional(Str),
  sourceType: t.Optional(Int),
  status: t.Optional(Int),
})

export const ErrorResult = t.Object({ code: Str, message: Str, data: t.Any() })
