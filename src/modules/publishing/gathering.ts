import { cuttableDelay } from '../../shared/time.ts'

/**
 * How long, at most, a pass about to start waits for announced writes (their SEO checks still
 * running on the pool) to commit and join it: a check takes a few milliseconds, so concurrent
 * publishes land in one pass instead of trickling into one pass each.
 */
const GATHER_MS = 40

/**
 * The writes announced to the publisher (`ChangeFeed.expect`, shared/changes.ts) and not yet settled
 * (committed, refused or failed), so the render loop can gather them into its next pass.
 */
export function createGathering() {
  let incoming = 0
  let allSettled: (() => void) | null = null
  return {
    announced(): void {
      incoming++
    },
    settled(): void {
      incoming--
      if (!incoming) allSettled?.()
    },
    /** Resolves once no announced write is pending, or after GATHER_MS: a pass then takes them all. */
    gathered(): Promise<void> {
      if (!incoming) return Promise.resolve()
      const delay = cuttableDelay(GATHER_MS)
      allSettled = delay.cut
      return delay.done.then(() => {
        allSettled = null
      })
    },
  }
}
