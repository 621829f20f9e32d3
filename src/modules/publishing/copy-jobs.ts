import type { Database } from 'bun:sqlite'
import { failedOnce, nextSeq, settleCopyJobs, type Job, type JobResult } from './jobs.ts'

/**
 * How long after the last sign of life of the process writing an artifact's copies their job
 * comes due: a pass's closing write records it this far ahead, and every later pass of the same
 * process, while the copies are still under way, moves it this far ahead again. So it never comes
 * due while its process lives; after a kill, the next start writes the copies this long after.
 */
export const COPIES_CONFIRM_MS = 2_000

type Done = Extract<JobResult, { failed: false }>

/**
 * The durable side of copies a pass does not wait for (docs/publishing.md, "Copies on their own
 * thread"). A pass ends without waiting for its copies; each still being written when its closing
 * write runs (`finishJobs`) is recorded there as a job of its own, due COPIES_CONFIRM_MS later
 * under a sequence number kept here; `flush` (at each pass's start, and before the render lock
 * goes back) ends the jobs of copies written since and postpones those still under way. So a
 * process killed before its copies land leaves their jobs, and whoever renders next writes them.
 * A copy answered before the closing write needs no job; copies not written (a full disk, a lost
 * thread), before or after it, are retried like a failed render: after the backoff of their
 * job's attempts plus one (`failedOnce`), counted in the job (so `/healthz` counts them as failing), never in a
 * loop that re-renders the path every few seconds while the disk stays full. Copies that
 * landed after their pass's closing write are announced in the write that ends their jobs
 * (`landed`: the S3 mirror puts them, which it could not when that pass recorded its changes).
 */
export function createCopyJobs(client: Database, now: () => number, landed?: (paths: string[]) => void) {
  /** Results whose copies are under way and whose pass has not yet recorded them. */
  const unrecorded = new Set<Done>()
  /** Recorded jobs of copies still under way. */
  const underWay = new Map<Done, Job>()
  /** Recorded jobs of copies written since: the jobs `flush` ends. */
  let written: Job[] = []
  /** Recorded jobs of copies not written: the jobs `flush` puts off for their retry. */
  let failed: Job[] = []

  return {
    /** `result`'s copies are being written (`copying`); not written, they are retried (`result.job.attempts` failed before). */
    track(result: Done, copying: Promise<boolean>): void {
      result.copiesDueAt = now() + COPIES_CONFIRM_MS
      result.copiesSeq = nextSeq()
      unrecorded.add(result)
      void copying.then((ok) => {
        if (unrecorded.delete(result)) {
          if (ok) {
            delete result.copiesDueAt
            delete result.copiesSeq
          } else {
            const retry = failedOnce(result.job, now())
            result.copiesAttempts = retry.attempts
            result.copiesDueAt = retry.dueAt
          }
          return
        }
        const job = underWay.get(result)
        underWay.delete(result)
        if (job) (ok ? written : failed).push(job)
      })
    },
    /** The pass's closing write has recorded every result tracked so far. */
    recorded(): void {
      for (const result of unrecorded)
        underWay.set(result, { path: result.job.path, seq: result.copiesSeq!, attempts: result.job.attempts })
      unrecorded.clear()
    },
    /** Ends the jobs of copies written since they were recorded, puts off those not written; those still under way are due later again. */
    flush(): void {
      const settled = { written, failed }
      written = []
      failed = []
      settleCopyJobs(client, settled, [...underWay.values()], now(), COPIES_CONFIRM_MS, landed)
    },
  }
}

export type CopyJobs = ReturnType<typeof createCopyJobs>
