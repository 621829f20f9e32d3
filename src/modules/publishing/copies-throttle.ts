import { offsetMonotonic, type Monotonic } from '../../shared/time.ts'

/**
 * When each artifact's copies were last handed out by this process, oldest first, so a path
 * rewritten by every pass of a burst gets its `.br`/`.gz` at most once per `everyMs`. On the
 * monotonic clock (`now`, injectable for tests): a step of the wall clock never holds copies back
 * or keeps them due. Entries older than the span are dropped as it is asked, so it stays as small
 * as the paths copied within the last span.
 */
export function createCopiesThrottle(everyMs: number, now: Monotonic = offsetMonotonic()) {
  const copiedAt = new Map<string, number>()
  return {
    /** The copies of `path` were handed out now (written or not, they count for the span). */
    copied(path: string): void {
      copiedAt.delete(path)
      copiedAt.set(path, now())
    },
    /** How long until the copies of `path` may be written again, in ms; null when they may be now. */
    waitMs(path: string): number | null {
      const at = now()
      for (const [oldest, when] of copiedAt) {
        if (at - when < everyMs) break
        copiedAt.delete(oldest)
      }
      const last = copiedAt.get(path)
      return last === undefined ? null : Math.ceil(last + everyMs - at)
    },
  }
}
