import type { Db } from '../../../db/client.ts'
import type { Logger } from '../../../shared/log.ts'
import type { Clock } from '../../../shared/time.ts'
import type { ArtifactBucket } from './bucket.ts'
import type { BucketLayout } from './objects.ts'
import { dueMirrorJobs, finishMirrorJob, mirrorBacklog, retryMirrorJob, type MirrorJob } from './outbox.ts'
import { mirrorArtifact } from './upload.ts'

export interface MirrorWorkerDeps {
  db: Db
  bucket: ArtifactBucket
  cacheDir: string
  layout: BucketLayout
  log: Logger
  clock: Clock
}

/** Jobs read at once; uploads in flight at once; how often the worker looks when nothing wakes it. */
const BATCH = 100
const CONCURRENCY = 16
const POLL_MS = 1_000
/** One artifact's upload may take this long; past it the job is retried (a store that hangs never stalls the loop). */
const UPLOAD_TIMEOUT_MS = 30_000

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> => {
  let timer: Timer | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the store within ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

/**
 * The artifact mirror's worker, one per server: it takes due jobs from the outbox, puts or deletes
 * each artifact's objects, and removes the job; a failure is retried with a growing delay (1 s
 * doubling to a minute), forever, so a store that was down catches up by itself. Every bit of
 * state is in SQLite: a restart loses nothing.
 */
export function createMirrorWorker(deps: MirrorWorkerDeps) {
  const { db, log } = deps
  const now = () => deps.clock().getTime()
  let lastError: { at: string; path: string; error: string } | null = null
  const totals = { put: 0, deleted: 0 }
  let stopped = true
  let loop: Promise<void> | null = null
  let wakeUp: (() => void) | null = null
  // A wake during a batch: the next nap is skipped, so jobs recorded meanwhile go at once.
  let woken = false

  async function mirror(job: MirrorJob): Promise<string | null> {
    try {
      const count = await withTimeout(mirrorArtifact(deps.bucket, deps.cacheDir, deps.layout, job.path, job.op), UPLOAD_TIMEOUT_MS)
      finishMirrorJob(db, job)
      totals.put += count.put
      totals.deleted += count.deleted
      return null
    } catch (error) {
      retryMirrorJob(db, job, now())
      lastError = { at: new Date(now()).toISOString(), path: job.path, error: String(error) }
      return String(error)
    }
  }

  /** One batch of due jobs; returns how many it took. */
  async function batch(): Promise<number> {
    const jobs = dueMirrorJobs(db, now(), BATCH)
    const errors: string[] = []
    for (let i = 0; i < jobs.length; i += CONCURRENCY)
      for (const error of await Promise.all(jobs.slice(i, i + CONCURRENCY).map(mirror))) if (error) errors.push(error)
    // One line per batch, not per artifact: a store that is down fails every job of it.
    if (errors.length) log.warn('artifact mirror: uploads failed, will retry', { failed: errors.length, of: jobs.length, error: errors[0] })
    return jobs.length
  }

  const nap = () =>
    new Promise<void>((resolve) => {
      if (woken) {
        woken = false
        return resolve()
      }
      const timer = setTimeout(resolve, POLL_MS)
      timer.unref()
      wakeUp = () => {
        wakeUp = null
        clearTimeout(timer)
        resolve()
      }
    })

  async function run(): Promise<void> {
    while (!stopped) {
      let taken = 0
      try {
        taken = await batch()
      } catch (error) {
        lastError = { at: new Date(now()).toISOString(), path: '', error: String(error) }
        log.error('artifact mirror pass failed', { error: String(error) })
      }
      if (taken < BATCH && !stopped) await nap()
    }
  }

  return {
    start() {
      if (!stopped) return
      stopped = false
      loop = run()
    },
    /** New jobs were recorded: look now instead of at the next poll. */
    wake() {
      if (wakeUp) wakeUp()
      else woken = true
    },
    async stop() {
      stopped = true
      wakeUp?.()
      wakeUp = null
      await loop
    },
    health() {
      return { ...mirrorBacklog(db, now()), lastError, ...totals }
    },
  }
}
