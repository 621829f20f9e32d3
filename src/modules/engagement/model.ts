import { t } from 'elysia'
import { Id, IdParam, pageQuery } from '../../http/schema.ts'
import { ENGAGEMENT_LIMITS } from './terms.ts'

const KEY_PATTERN = (max: number) => `^[A-Za-z0-9_.:-]{1,${max}}$`

/** `BlogCommentReq` (spec §2.9). Blank text is refused by the verb, which trims. */
export const CommentReq = t.Object(
  {
    authorName: t.String({
      minLength: 1,
      maxLength: ENGAGEMENT_LIMITS.authorName,
      pattern: '\\S',
      description: `a non-blank name of at most ${ENGAGEMENT_LIMITS.authorName} characters`,
    }),
    content: t.String({
      minLength: 1,
      maxLength: ENGAGEMENT_LIMITS.content,
      pattern: '\\S',
      description: `non-blank text of at most ${ENGAGEMENT_LIMITS.content} characters`,
    }),
    authorEmail: t.Optional(
      t.Union([
        t.String({
          maxLength: ENGAGEMENT_LIMITS.authorEmail,
          description: `an email address of at most ${ENGAGEMENT_LIMITS.authorEmail} characters`,
        }),
        t.Null(),
      ]),
    ),
    parentId: t.Optional(t.Union([Id, t.Null()])),
  },
  { $id: 'BlogCommentReq' },
)
export type CommentReq = typeof CommentReq.static

/** `BlogReactionReq` (spec §2.9). */
export const ReactionReq = t.Object(
  {
    reactionKey: t.Literal('clap', { description: 'the reaction "clap"' }),
    clientKey: t.String({
      pattern: KEY_PATTERN(ENGAGEMENT_LIMITS.clientKey),
      description: `1 to ${ENGAGEMENT_LIMITS.clientKey} characters of A-Z a-z 0-9 _ . : -`,
    }),
    count: t.Integer({
      minimum: 1,
      maximum: ENGAGEMENT_LIMITS.clapsPerCall,
      description: `a whole number from 1 to ${ENGAGEMENT_LIMITS.clapsPerCall}`,
    }),
  },
  { $id: 'BlogReactionReq' },
)
export type ReactionReq = typeof ReactionReq.static

export const ModerateReq = t.Object({
  /** `spam` rejects like `reject` and records that a moderator called it spam (the console's Spam button). */
  action: t.Union([t.Literal('approve'), t.Literal('reject'), t.Literal('spam')]),
})
export type ModerateReq = typeof ModerateReq.static

/** An owner's reply: its text, and the name shown when a token (not a signed-in person) sends it. */
export const ReplyReq = t.Object({
  content: t.String({ minLength: 1, maxLength: ENGAGEMENT_LIMITS.content, pattern: '\\S', description: 'the reply, plain text' }),
  authorName: t.Optional(t.String({ minLength: 1, maxLength: ENGAGEMENT_LIMITS.authorName, pattern: '\\S' })),
})
export type ReplyReq = typeof ReplyReq.static

export const CommentListQuery = t.Object({
  status: t.Optional(t.Union([t.Literal('0'), t.Literal('1'), t.Literal('2')])),
  postId: t.Optional(IdParam),
  ...pageQuery,
})

/** `BlogPublicCommentRes`: exactly these fields, nothing about the commenter's identity. */
export const PublicCommentRes = t.Object(
  {
    id: Id,
    postId: Id,
    parentId: t.Union([Id, t.Null()]),
    authorName: t.String(),
    content: t.String({ description: 'plain text' }),
    createTime: t.String(),
    status: t.Integer({ minimum: 0, maximum: 2, description: '0 pending, 1 approved, 2 rejected/spam' }),
    statusText: t.String(),
  },
  { $id: 'BlogPublicCommentRes' },
)
export type PublicCommentRes = typeof PublicCommentRes.static

/** `BlogCommentRes`: the admin record, with what moderation needs. Never on a public endpoint. */
export interface CommentRes extends PublicCommentRes {
  postTitle: string
  authorEmail: string
  spamReason: string
  ip: string
  userAgent: string
  moderateTime: string | null
  updateTime: string
}

/** `BlogEngagementRes`. */
export const EngagementRes = t.Object(
  { postId: Id, clapCount: t.Integer({ minimum: 0 }), commentCount: t.Integer({ minimum: 0 }), comments: t.Array(PublicCommentRes) },
  { $id: 'BlogEngagementRes' },
)
export type EngagementRes = typeof EngagementRes.static
