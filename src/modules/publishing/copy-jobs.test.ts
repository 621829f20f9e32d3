import { afterAll, describe, expect, test } from 'bun:test'
import { migratedTempDb } from '../../../test/support/temp-db.ts'
import { COPIES_CONFIRM_MS, createCopyJobs } from './copy-jobs.ts'
import { finishJobs, markStale, nextSeq, retryDelayMs, type JobResult } from './jobs.ts'

// The copies' own jobs (copy-jobs.ts), on a real migrated SQLite file: what a pass that did not
// wait for its copies leaves in `artifact_jobs`, as the copies land or not.
const { db, dispose } = migratedTempDb('folio-copy-jobs-')
afterAll(dispose)

let t = 1_000_000
const now = () => t
const jobs = () => db.$client.query('select path, due_at as dueAt, attempts from artifact_jobs order by path').all()

/** A promise the test settles: a copy under way on the copies thread. */
function copying() {
  let settle!: (written: boolean) => void
  const promise = new Promise<boolean>((resolve) => (settle = resolve))
  return { promise, settle }
}

/** One pass over `paths`: each job read, placed, its copies handed out; then its closing write. */
function pass(copyJobs: ReturnType<typeof createCopyJobs>, paths: string[]) {
  markStale(db, paths, t, nextSeq())
  const read = db.$client.query('select path, seq, attempts from artifact_jobs where path in (select value from json_each(?))')
  const handed = new Map<string, ReturnType<typeof copying>>()
  const results: JobResult[] = (read.all(JSON.stringify(paths)) as { path: string; seq: number; attempts: number }[]).map((job) => {
    const result = { job, hash: `"${job.path}"`, failed: false as const }
    const copy = copying()
    handed.set(job.path, copy)
    copyJobs.track(result, copy.promise)
    return result
  })
  return {
    handed,
    close() {
      finishJobs(db.$client, results, t)
      copyJobs.recorded()
    },
  }
}

describe('copy jobs', () => {
  test('copies written before the closing write leave no job; one still under way has one until it lands; a failed one waits for its retry', async () => {
    const copyJobs = createCopyJobs(db.$client, now)
    const first = pass(copyJobs, ['a/@', 'b/@', 'c/@'])
    first.handed.get('a/@')!.settle(true)
    first.handed.get('b/@')!.settle(false)
    await Bun.sleep(0)
    first.close()
    // a: done. b: not written, due at its retry, one attempt failed. c: under way, due after the confirm span.
    expect(jobs()).toEqual([
      { path: 'b/@', dueAt: t + retryDelayMs(1), attempts: 1 },
      { path: 'c/@', dueAt: t + COPIES_CONFIRM_MS, attempts: 0 },
    ])
    // A later pass while c is still under way moves its job ahead again: never due while it is written.
    t += 1_500
    copyJobs.flush()
    expect(jobs()).toContainEqual({ path: 'c/@', dueAt: t + COPIES_CONFIRM_MS, attempts: 0 })
    first.handed.get('c/@')!.settle(true)
    await Bun.sleep(0)
    copyJobs.flush()
    expect(jobs()).toEqual([{ path: 'b/@', dueAt: t - 1_500 + retryDelayMs(1), attempts: 1 }])
  })

  test('a copy written after its path was marked again leaves the new job alone; one not written after the closing write waits for its retry', async () => {
    db.$client.exec('delete from artifact_jobs')
    const copyJobs = createCopyJobs(db.$client, now)
    const one = pass(copyJobs, ['d/@', 'e/@'])
    one.close()
    // A change marks d again (a newer seq) while its copies are under way.
    markStale(db, ['d/@'], t + 50, nextSeq())
    one.handed.get('d/@')!.settle(true)
    one.handed.get('e/@')!.settle(false)
    await Bun.sleep(0)
    copyJobs.flush()
    expect(jobs()).toEqual([
      { path: 'd/@', dueAt: t + 50, attempts: 0 },
      { path: 'e/@', dueAt: t + retryDelayMs(1), attempts: 1 },
    ])
  })

  test('copies that keep failing are retried further apart each time, as a failed render is', async () => {
    db.$client.exec('delete from artifact_jobs')
    const copyJobs = createCopyJobs(db.$client, now)
    const delays: number[] = []
    for (let attempt = 1; attempt <= 7; attempt++) {
      // The due job, read with the attempts it failed so far, rendered again; its copies fail once more.
      db.$client.query('update artifact_jobs set due_at = ?1').run(t)
      const read = db.$client.query('select path, seq, attempts from artifact_jobs').all() as JobResult['job'][]
      const job = read[0] ?? { path: 'f/@', seq: nextSeq(), attempts: 0 }
      if (!read.length) markStale(db, [job.path], t, job.seq)
      const result: JobResult = { job, hash: '"f"', failed: false }
      copyJobs.track(result, Promise.resolve(false))
      // Half of them fail before the pass's closing write, half after it.
      if (attempt % 2) await Bun.sleep(0)
      finishJobs(db.$client, [result], t)
      copyJobs.recorded()
      await Bun.sleep(0)
      copyJobs.flush()
      const [row] = jobs() as { dueAt: number; attempts: number }[]
      expect(row!.attempts).toBe(attempt)
      delays.push(row!.dueAt - t)
    }
    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000])
  })
})
