import type { PostEvent, ScheduleFailure } from '../../shared/changes.ts'
import { postPath } from '../../shared/language.ts'
import { formatTime } from '../../shared/time.ts'
import type { PostRow } from '../posts/repo.ts'

/** The events of spec §6 and the wildcard that subscribes to all of them. */
export const POST_EVENTS = [
  'blog.post.published',
  'blog.post.unpublished',
  'blog.post.deleted',
  'blog.post.schedule_failed',
] as const satisfies readonly PostEvent[]
export const WILDCARD = 'blog.*'
export const SUBSCRIBABLE = [...POST_EVENTS, WILDCARD] as const
export type Subscription = (typeof SUBSCRIBABLE)[number]

export const isSubscription = (value: string): value is Subscription => (SUBSCRIBABLE as readonly string[]).includes(value)

export const subscribesTo = (subscriptions: readonly string[], event: PostEvent): boolean =>
  subscriptions.includes(event) || subscriptions.includes(WILDCARD)

/** The JSON body of every delivery (docs/webhooks.md shows an example). Times are UTC `YYYY-MM-DD HH:mm:ss`, as in the API. */
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
  }
  /** `blog.post.schedule_failed` only: the due time and the blocking checks that kept the post a draft. */
  scheduledAt?: string
  failedItems?: string[]
}

export function buildPayload(
  siteUrl: string,
  event: PostEvent,
  post: PostRow,
  eventId: string,
  occurredAt: Date,
  scheduleFailure?: ScheduleFailure,
): WebhookPayload {
  return {
    id: eventId,
    event,
    occurredAt: formatTime(occurredAt),
    post: {
      id: post.id,
      language: post.language,
      slug: post.slug,
      title: post.title,
      status: post.status,
      url: siteUrl + postPath(post.language, post.slug),
      publishedAt: post.publishedAt,
    },
    ...scheduleFailure,
  }
}
