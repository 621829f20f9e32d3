import type { Database } from 'bun:sqlite'
import { asc, lte, sql } from 'drizzle-orm'
import type { Db, Queryable } from '../../../db/client.ts'
import { artifactMirrorJobs } from '../../../db/schema/index.ts'
import { nextSeq } from '../jobs.ts'
import { backlogCounts, countsOf, doublingDelay, durableQueue } from '../queue.ts'
import type { ArtifactChange } from '../publisher.ts'

/** A due mirror job as the worker reads it. */
export interface MirrorJob {
  path: string
  op: 'put' | 'delete'
  seq: number
  attempts: number
}

/**
 * Records that these artifacts' objects must follow the disk, due now. Runs inside the write that
 * finishes the render jobs (the caller's transaction); a path already waiting takes the newest op
 * and a new `seq`, so an upload under way for the old one does not clear it.
 */
export function recordMirrorJobs(client: Database, changes: readonly ArtifactChange[], now: number): void {
  const upsert = client.query(
    `insert into artifact_mirror_jobs (path, op, due_at, seq, attempts) values (?1, ?2, ?3, ?4, 0)
     on conflict (path) do update set op = excluded.op, due_at = excluded.due_at, seq = excluded.seq, attempts = 0`,
  )
  for (const change of changes)
    upsert.run(change.path, change.outcome === 'written' || change.outcome === 'copied' ? 'put' : 'delete', now, nextSeq())
}

/** Due mirror jobs, oldest first. */
export const dueMirrorJobs = (db: Queryable, now: number, limit: number): MirrorJob[] =>
  db
    .select({
      path: artifactMirrorJobs.path,
      op: artifactMirrorJobs.op,
      seq: artifactMirrorJobs.seq,
      attempts: artifactMirrorJobs.attempts,
    })
    .from(artifactMirrorJobs)
    .where(lte(artifactMirrorJobs.dueAt, now))
    .orderBy(asc(artifactMirrorJobs.dueAt), asc(artifactMirrorJobs.path))
    .limit(limit)
    .all()

/** Retry delay after `attempts` failed uploads: 1 s, doubling, at most a minute; retried forever. */
const mirrorQueue = durableQueue('artifact_mirror_jobs', doublingDelay(1_000))

/** The job is done, unless the artifact changed again meanwhile (a new `seq`): that one stays. */
export const finishMirrorJob = (db: Db, job: MirrorJob): void => void mirrorQueue.finish(db.$client, job)

export const retryMirrorJob = (db: Db, job: MirrorJob, now: number): void => mirrorQueue.retry(db.$client, job, now)

/** The mirror's backlog for `/healthz`: jobs waiting, how many are due, how many have failed, and the oldest one's age. */
export function mirrorBacklog(db: Queryable, now: number): { pending: number; due: number; failing: number; oldestMs: number | null } {
  const row = db
    .select({
      ...backlogCounts(artifactMirrorJobs, now),
      // `seq` is the time the job was recorded, in µs.
      oldest: sql<number | null>`min(${artifactMirrorJobs.seq}) / 1000`,
    })
    .from(artifactMirrorJobs)
    .get()
  return {
    ...countsOf(row),
    oldestMs: row?.oldest == null ? null : Math.max(0, now - row.oldest),
  }
}
