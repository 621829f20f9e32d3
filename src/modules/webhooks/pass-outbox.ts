import type { Ctx } from '../../context.ts'
import { chunks } from '../publishing/jobs.ts'
import type { ArtifactChange } from '../publishing/publisher.ts'
import { PURGE_BATCH, purgeUrls } from '../publishing/purge.ts'
import { changedFeeds, changedPages } from '../site/discovery.ts'
import { eventTime } from './post-facts.ts'
import { createEventQueue } from './enqueue.ts'
import { CACHE_PURGE, INDEXNOW_SUBMIT, WEBSUB_PUBLISH, type PassEvent, type PassUrlsPayload } from './events.ts'

/** URLs per IndexNow call: the protocol's limit (indexnow.org). */
const INDEXNOW_BATCH = 10_000

/**
 * The publisher's pass hook: the URLs a render pass changed, queued for every receiver subscribed to
 * their event: `blog.cache.purge` events of at most PURGE_BATCH URLs (the purge endpoint of
 * PURGE_URL among their receivers), the changed site pages for IndexNow in parts of at most
 * INDEXNOW_BATCH, and one `blog.websub.publish` per changed feed (docs/discovery.md). It runs
 * inside the pass's closing write, so an event exists exactly when the bytes it names were
 * written or removed and their jobs finished.
 */
export function passOutbox(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>, wake: () => void) {
  const queue = createEventQueue(ctx.db)
  const { siteUrl } = ctx.config
  return (changes: readonly ArtifactChange[]): void => {
    const lists: [PassEvent, string[][]][] = [
      [CACHE_PURGE, chunks(purgeUrls(siteUrl, changes), PURGE_BATCH)],
      [INDEXNOW_SUBMIT, chunks(changedPages(siteUrl, changes), INDEXNOW_BATCH)],
      [WEBSUB_PUBLISH, changedFeeds(siteUrl, changes).map((feed) => [feed])],
    ]
    const occurredAt = ctx.clock()
    const passId = crypto.randomUUID()
    let any = false
    for (const [event, parts] of lists)
      parts.forEach((urls, i) => {
        const payloadOf = (id: string): PassUrlsPayload => ({
          id,
          event,
          occurredAt: eventTime(occurredAt),
          passId,
          part: i + 1,
          parts: parts.length,
          urls,
        })
        any = queue(event, null, occurredAt, payloadOf) || any
      })
    // The worker's wake waits a moment (supervisor.ts): this write has committed by then.
    if (any) wake()
  }
}
