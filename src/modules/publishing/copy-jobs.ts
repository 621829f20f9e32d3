import type { Database } from 'bun:sqlite'
import { finishCopies, nextSeq, type JobResult } from './jobs.ts'

/**
 * How long a pass's copies may take after its closing write before a later pass (this process's,
 * or the next start's after a kill) writes them again: their job is due then, and ended as soon as
 * they are written, so normally it never comes due. Copies still on the copies thread by then
 * (it lags at most `COPIES_IN_FLIGHT` artifacts behind, destinations.ts) cost only a re-render.
 */
export const COPIES_CONFIRM_MS = 2_000

type Done = Extract<JobResult, { failed: false }>

/**
 * The durable side of copies a pass does not wait for (docs/publishing.md, "Copies on their own
 * thread"). A pass ends without waiting for its copies; each still being written when its closing
 * write runs (`finishJobs`) is recorded there as a job of its own, due COPIES_CONFIRM_MS later under
 * a sequence number kept here; once the copies are written, `flush` ends those jobs in one short
 * write. So a process killed before its copies land leaves their jobs, and whoever renders next
 * writes them. A copy answered before the closing write needs no job (or, not written, is left for
 * `retryAt` like copies held back by the throttle).
 */
export function createCopyJobs(client: Database, now: () => number) {
  /** Results whose copies are under way and whose pass has not yet recorded them. */
  const unrecorded = new Set<Done>()
  /** Copies written after their pass recorded their job: the jobs `flush` ends. */
  let written: { path: string; seq: number }[] = []

  return {
    /** `result`'s copies are being written (`copying`); not written, they are due at `retryAt()`. */
    track(result: Done, copying: Promise<boolean>, retryAt: () => number): void {
      result.copiesDueAt = now() + COPIES_CONFIRM_MS
      result.copiesSeq = nextSeq()
      unrecorded.add(result)
      void copying.then((ok) => {
        if (!unrecorded.delete(result)) {
          if (ok) written.push({ path: result.job.path, seq: result.copiesSeq! })
        } else if (ok) {
          delete result.copiesDueAt
          delete result.copiesSeq
        } else result.copiesDueAt = retryAt()
      })
    },
    /** The pass's closing write has recorded every result tracked so far. */
    recorded(): void {
      unrecorded.clear()
    },
    /** Ends the jobs of copies written since they were recorded. */
    flush(): void {
      const done = written
      written = []
      finishCopies(client, done)
    },
  }
}

export type CopyJobs = ReturnType<typeof createCopyJobs>
