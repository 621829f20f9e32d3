import type { Clock } from '../../src/shared/time.ts'

/**
 * A clock that moves only when the test says: what a component given it sees as "now". A test
 * that checks "retried after 300 ms" advances it by 299 ms (nothing happens), then by 1 ms (the
 * retry happens), instead of sleeping on the real clock and asserting inside a timing window.
 */
export function manualClock(start = Date.parse('2026-03-01T12:00:00Z')) {
  let now = start
  const clock: Clock = () => new Date(now)
  return {
    clock,
    /** Epoch ms the clock reads. */
    now: () => now,
    advance(ms: number): void {
      now += ms
    },
  }
}
