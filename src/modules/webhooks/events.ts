import type { PostEvent, ScheduleFailure } from '../../shared/changes.ts'
import { postUrl } from '../../shared/language.ts'
import type { PostRow } from '../posts/repo.ts'
import { eventTime, type PostFacts, type TermRef } from './post-facts.ts'

/** The events of spec §6 and the wildcard that subscribes to all of them. */
export const POST_EVENTS = [
  'blog.post.published',
  'blog.post.unpublished',
  'blog.post.deleted',
  'blog.post.schedule_failed',
] as const satisfies readonly PostEvent[]
/**
 * A render pass changed public URLs (payload `CachePurgePayload`). Subscribed to by name only:
 * `blog.*` stays the post events it always meant, so existing receivers see no new shape.
 */
export const CACHE_PURGE = 'blog.cache.purge'
/**
 * The pages a render pass changed, for IndexNow (payload `PassUrlsPayload`), and one changed feed,
 * for the WebSub hub: events of the configured endpoints only (webhooks/endpoints.ts), never
 * subscribable by an administrator's receiver.
 */
export const INDEXNOW_SUBMIT = 'blog.indexnow.submit'
export const WEBSUB_PUBLISH = 'blog.websub.publish'
/** A reader posted a comment (payload `CommentCreatedPayload`): subscribed to by name only, like the purge. */
export const COMMENT_CREATED = 'blog.comment.created'
export const WILDCARD = 'blog.*'
/** A test event an administrator sends to one receiver (payload `PingPayload`); never subscribed to, only sent on demand. */
export const PING = 'blog.ping'
export const SUBSCRIBABLE = [...POST_EVENTS, CACHE_PURGE, COMMENT_CREATED, WILDCARD] as const
export type Subscription = (typeof SUBSCRIBABLE)[number]
/** The events that carry one part of one render pass's URL list. */
export type PassEvent = typeof CACHE_PURGE | typeof INDEXNOW_SUBMIT | typeof WEBSUB_PUBLISH
export type WebhookEvent = PostEvent | PassEvent | typeof COMMENT_CREATED

export const isSubscription = (value: string): value is Subscription => (SUBSCRIBABLE as readonly string[]).includes(value)

export const subscribesTo = (subscriptions: readonly string[], event: WebhookEvent): boolean =>
  subscriptions.includes(event) || ((POST_EVENTS as readonly string[]).includes(event) && subscriptions.includes(WILDCARD))

/**
 * The body of a `blog.comment.created` event: enough to moderate from a chat message (the text, the
 * name, whether the spam rules held it, the post and the console's moderation page), never the
 * commenter's email or address (those stay in the console).
 */
export interface CommentCreatedPayload {
  id: string
  event: typeof COMMENT_CREATED
  occurredAt: string
  comment: { id: number; parentId: number | null; authorName: string; content: string; status: number; spamReason: string }
  post: { id: number; language: PostRow['language']; slug: string; title: string; url: string }
  moderationUrl: string
}

/** The body of a `blog.ping` test delivery. */
export interface PingPayload {
  id: string
  event: typeof PING
  occurredAt: string
  receiver: { id: number; url: string }
  message: string
}

/** The JSON body of every post event (docs/webhooks.md shows an example). `occurredAt` is UTC with its offset; the post's times are the API's UTC `YYYY-MM-DD HH:mm:ss`. */
export interface WebhookPayload {
  /** Unique per event; every receiver of the event (and a manual redelivery) sees the same id. */
  id: string
  event: PostEvent
  occurredAt: string
  post: {
    id: number
    language: PostRow['language']
    slug: string
    title: string
    status: number
    url: string
    publishedAt: string | null
    summary: string
    coverImage: string
    coverAlt: string
    /** The post's version after the change (as `If-Match` takes it) and when it was last written (UTC). */
    version: number
    updatedTime: string
    category: TermRef | null
    tags: TermRef[]
    /** The paired article in the other language (`alternateSlug`), or null. */
    translation: { language: PostRow['language']; slug: string; url: string } | null
  }
  /** `blog.post.schedule_failed` only: the due time and the blocking checks that kept the post a draft. */
  scheduledAt?: string
  failedItems?: string[]
}

/** The body of a pass event: one part of one render pass's URL list (its purge list, its pages, one feed). */
export interface PassUrlsPayload<E extends PassEvent = PassEvent> {
  id: string
  event: E
  occurredAt: string
  /** Shared by the parts of one pass's list. */
  passId: string
  /** 1-based; a list longer than its batch (PURGE_BATCH URLs for a purge) comes in `parts` events. */
  part: number
  parts: number
  /** Absolute URLs on SITE_URL whose bytes the pass changed or removed. */
  urls: string[]
}

/** The body of a `blog.cache.purge` event: one part of one render pass's purge list. */
export type CachePurgePayload = PassUrlsPayload<typeof CACHE_PURGE>

export function buildPayload(
  siteUrl: string,
  event: PostEvent,
  post: PostRow,
  eventId: string,
  occurredAt: Date,
  facts: PostFacts,
  scheduleFailure?: ScheduleFailure,
): WebhookPayload {
  const other = post.language === 'en' ? 'zh' : 'en'
  return {
    id: eventId,
    event,
    occurredAt: eventTime(occurredAt),
    post: {
      id: post.id,
      language: post.language,
      slug: post.slug,
      title: post.title,
      status: post.status,
      url: postUrl(siteUrl, post.language, post.slug),
      publishedAt: post.publishedAt,
      summary: post.summary,
      coverImage: post.coverImage,
      coverAlt: post.coverAlt,
      version: post.version,
      updatedTime: post.updatedAt,
      ...facts,
      translation: post.alternateSlug
        ? { language: other, slug: post.alternateSlug, url: postUrl(siteUrl, other, post.alternateSlug) }
        : null,
    },
    ...scheduleFailure,
  }
}
