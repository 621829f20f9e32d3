import type { Ctx } from '../../context.ts'
import { chunks } from '../publishing/jobs.ts'
import type { ArtifactChange } from '../publishing/publisher.ts'
import { PURGE_BATCH, purgeUrls } from '../publishing/purge.ts'
import { eventTime } from './post-facts.ts'
import { createEventQueue } from './enqueue.ts'
import { CACHE_PURGE, type CachePurgePayload } from './events.ts'

/**
 * The publisher's pass hook for exact purges: the URLs a render pass changed, queued as
 * `blog.cache.purge` events of at most PURGE_BATCH URLs each, for every receiver subscribed to
 * it (the purge endpoint of PURGE_URL among them). It runs inside the pass's closing write, so an
 * event exists exactly when the bytes it names were written or removed and their jobs finished.
 */
export function cachePurgeOutbox(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>, wake: () => void) {
  const queue = createEventQueue(ctx.db)
  return (changes: readonly ArtifactChange[]): void => {
    const parts = chunks(purgeUrls(ctx.config.siteUrl, changes), PURGE_BATCH)
    const occurredAt = ctx.clock()
    const passId = crypto.randomUUID()
    let any = false
    parts.forEach((urls, i) => {
      const payloadOf = (id: string): CachePurgePayload => ({
        id,
        event: CACHE_PURGE,
        occurredAt: eventTime(occurredAt),
        passId,
        part: i + 1,
        parts: parts.length,
        urls,
      })
      any = queue(CACHE_PURGE, null, occurredAt, payloadOf) || any
    })
    // The worker's wake waits a moment (supervisor.ts): this write has committed by then.
    if (any) wake()
  }
}
