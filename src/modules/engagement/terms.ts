// The engagement endpoints' fixed terms, apart from their schemas (model.ts): the renderer, the
// moderation verbs and the CLI use them without loading the web framework.

/** Documented bounds of the engagement endpoints (docs/engagement.md). */
export const ENGAGEMENT_LIMITS = {
  authorName: 80,
  authorEmail: 254,
  content: 5_000,
  clientKey: 64,
  /** Longer user agents are cut when stored. */
  userAgent: 512,
  /** Claps one request may add. */
  clapsPerCall: 10,
  /** Claps one clientKey may give one post in total, as Medium's button allows. */
  clapsPerClient: 50,
} as const

export const COMMENT_STATUS = { pending: 0, approved: 1, rejected: 2 } as const
export type CommentStatus = (typeof COMMENT_STATUS)[keyof typeof COMMENT_STATUS]
