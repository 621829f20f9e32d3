import type { Queryable } from '../../db/client.ts'
import type { ArtifactEffect } from './kinds.ts'
import { stillPending, type Job } from './jobs.ts'
import { emptyStats, tally, type RenderStats } from './stats.ts'
import type { WriteOutcome } from './writer.ts'

/** A request waiting for its own artifacts to be served: each path until a pass renders it at or past `seq`. */
interface Waiter {
  seq: number
  pending: Set<string>
  effects: RenderStats
  done(): void
}

/** A request never waits longer than this for its artifacts; what is left is rendered later and shows in `/healthz`. */
const WAIT_MS = 30_000

/**
 * The requests waiting for their artifacts: a request that changed public content waits for the
 * first pass that renders its paths from a snapshot including its change, so N concurrent
 * publishes share passes.
 */
export function createWaiters(db: Queryable) {
  const waiters = new Set<Waiter>()

  function finish(waiter: Waiter): void {
    if (waiter.pending.size) return
    waiters.delete(waiter)
    waiter.done()
  }

  /** Answers a waiter whose paths could not all be rendered: they count as failed. */
  function release(waiter: Waiter): void {
    if (!waiters.delete(waiter)) return
    waiter.effects.failed += waiter.pending.size
    waiter.done()
  }

  return {
    get size() {
      return waiters.size
    },
    /** Resolves once every path has been rendered at or past `seq` (or has failed and waits for its retry). */
    served(paths: readonly string[], seq: number): Promise<RenderStats> {
      return new Promise((resolve) => {
        const effects = emptyStats()
        const timeout = setTimeout(() => release(waiter), WAIT_MS)
        const waiter: Waiter = {
          seq,
          pending: new Set(paths),
          effects,
          done: () => {
            clearTimeout(timeout)
            resolve(effects)
          },
        }
        waiters.add(waiter)
      })
    },
    notify(job: Job, effect: ArtifactEffect, outcome: WriteOutcome | 'failed'): void {
      for (const waiter of waiters) {
        if (job.seq < waiter.seq || !waiter.pending.delete(job.path)) continue
        tally(waiter.effects, effect, outcome)
        finish(waiter)
      }
    },
    /**
     * Waiters whose jobs another process (a `cli rebuild`) has done, gone from the table, are
     * answered; the rest wait for a later pass. Asked while that process holds the render lock, and
     * after each pass of this one: a rebuild may do a waiter's jobs and let go of the lock between
     * two of this loop's tries, and the pass that then takes the lock finds nothing due to notify.
     */
    settleForeign(): void {
      for (const waiter of waiters) {
        const left = stillPending(db, [...waiter.pending])
        for (const path of waiter.pending) if (!left.has(path)) waiter.pending.delete(path)
        finish(waiter)
      }
    },
    releaseAll(): void {
      for (const waiter of waiters) release(waiter)
    },
  }
}

export type Waiters = ReturnType<typeof createWaiters>
