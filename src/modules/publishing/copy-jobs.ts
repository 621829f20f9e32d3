import type { Database } from 'bun:sqlite'
import { nextSeq, settleCopyJobs, type JobResult } from './jobs.ts'

/**
 * How long after the last sign of life of the process writing an artifact's copies their job
 * comes due: a pass's closing write records it this far ahead, and every later pass of the same
 * process, while the copies are still under way, moves it this far ahead again. So it never comes
 * due while its process lives; after a kill, the next start writes the copies this long after.
 */
export const COPIES_CONFIRM_MS = 2_000

type Done = Extract<JobResult, { failed: false }>
type CopyJob = { path: string; seq: number }

/**
 * The durable side of copies a pass does not wait for (docs/publishing.md, "Copies on their own
 * thread"). A pass ends without waiting for its copies; each still being written when its closing
 * write runs (`finishJobs`) is recorded there as a job of its own, due COPIES_CONFIRM_MS later
 * under a sequence number kept here; `flush` (at each pass's start, and before the render lock
 * goes back) ends the jobs of copies written since and postpones those still under way. So a
 * process killed before its copies land leaves their jobs, and whoever renders next writes them.
 * A copy answered before the closing write needs no job (or, not written, is left for `retryAt`
 * like copies held back by the throttle); one not written after it keeps its job. Copies that
 * landed after their pass's closing write are announced in the write that ends their jobs
 * (`landed`: the S3 mirror puts them, which it could not when that pass recorded its changes).
 */
export function createCopyJobs(client: Database, now: () => number, landed?: (paths: string[]) => void) {
  /** Results whose copies are under way and whose pass has not yet recorded them. */
  const unrecorded = new Set<Done>()
  /** Recorded jobs of copies still under way. */
  const underWay = new Map<Done, CopyJob>()
  /** Recorded jobs of copies written since: the jobs `flush` ends. */
  let written: CopyJob[] = []

  return {
    /** `result`'s copies are being written (`copying`); not written, they are due at `retryAt()`. */
    track(result: Done, copying: Promise<boolean>, retryAt: () => number): void {
      result.copiesDueAt = now() + COPIES_CONFIRM_MS
      result.copiesSeq = nextSeq()
      unrecorded.add(result)
      void copying.then((ok) => {
        if (unrecorded.delete(result)) {
          if (ok) {
            delete result.copiesDueAt
            delete result.copiesSeq
          } else result.copiesDueAt = retryAt()
          return
        }
        const job = underWay.get(result)
        underWay.delete(result)
        if (ok && job) written.push(job)
      })
    },
    /** The pass's closing write has recorded every result tracked so far. */
    recorded(): void {
      for (const result of unrecorded) underWay.set(result, { path: result.job.path, seq: result.copiesSeq! })
      unrecorded.clear()
    },
    /** Ends the jobs of copies written since they were recorded; those still under way are due later again. */
    flush(): void {
      const done = written
      written = []
      settleCopyJobs(client, done, [...underWay.values()], now() + COPIES_CONFIRM_MS, landed)
    },
  }
}

export type CopyJobs = ReturnType<typeof createCopyJobs>
