import { and, asc, eq, gt, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm'
import type { Database } from 'bun:sqlite'
import type { Queryable } from '../../db/client.ts'
import { idIn, preparedOnce } from '../../db/prepared.ts'
import { artifactFiles, artifactJobs } from '../../db/schema/index.ts'
import { backlogCounts, countsOf, doublingDelay, durableQueue } from './queue.ts'

/** Rows per statement: well under SQLite's bound on bound parameters. */
const CHUNK = 400

export const chunks = <T>(items: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** A due render job as a pass reads it. */
export interface Job {
  path: string
  seq: number
  attempts: number
}

let lastSeq = 0
/**
 * A fresh job sequence number: increasing within this process, and (being time-based) distinct
 * from other processes' in practice. A render clears a job only while its `seq` is the one it
 * read, so any change committed after the render's snapshot keeps its job.
 */
export function nextSeq(): number {
  lastSeq = Math.max(lastSeq + 1, Date.now() * 1000)
  return lastSeq
}

/** The render lanes (schema/publishing.ts): a change's own artifacts, and a site-wide re-render's. */
export const LANE = { now: 0, background: 1 } as const
export type Lane = (typeof LANE)[keyof typeof LANE]

/**
 * Marks artifacts stale, due at `dueAt`, under `seq`, in `lane`. A path already waiting keeps the
 * earlier due time and the more urgent lane, so a burst of changes to one post is rendered once,
 * and an urgent change is never postponed by a lazy one (a refresh: engagement counts) or a site-wide re-render
 * that came first.
 */
export function markStale(db: Queryable, paths: readonly string[], dueAt: number, seq: number, lane: Lane = LANE.now): void {
  const { mark } = statements(db)
  for (const path of paths) mark.run({ path, dueAt, seq, lane })
}

/** Built and compiled once per connection: a publish marks about 40 paths inside its write, and every pass reads its jobs and hashes. */
const statements = preparedOnce((db) => ({
  mark: db
    .insert(artifactJobs)
    .values({ path: sql.placeholder('path'), dueAt: sql.placeholder('dueAt'), seq: sql.placeholder('seq'), lane: sql.placeholder('lane') })
    .onConflictDoUpdate({
      target: artifactJobs.path,
      set: {
        dueAt: sql`min(${artifactJobs.dueAt}, excluded.due_at)`,
        seq: sql`excluded.seq`,
        attempts: 0,
        lane: sql`min(${artifactJobs.lane}, excluded.lane)`,
      },
    })
    .prepare(),
  due: db
    .select({ path: artifactJobs.path, seq: artifactJobs.seq, attempts: artifactJobs.attempts })
    .from(artifactJobs)
    .where(and(eq(artifactJobs.lane, sql.placeholder('lane')), lte(artifactJobs.dueAt, sql.placeholder('now'))))
    .orderBy(asc(artifactJobs.dueAt), asc(artifactJobs.path))
    .limit(sql.placeholder('limit'))
    .prepare(),
  // By a JSON array of paths (`idIn`), for any number of them.
  pending: db.select({ path: artifactJobs.path }).from(artifactJobs).where(idIn(artifactJobs.path)).prepare(),
  hashes: db.select().from(artifactFiles).where(idIn(artifactFiles.path)).prepare(),
}))

/** Due jobs of a lane, oldest first. */
export const dueJobs = (db: Queryable, now: number, limit: number, lane: Lane = LANE.now): Job[] =>
  statements(db).due.all({ now, limit, lane })

/**
 * Jobs due after `latest` (a wall clock that has since stepped back set them: shared/clock-steps.ts)
 * made due at `now`; how many. A read first, so a pass without such jobs writes nothing.
 */
export function rebaseAhead(db: Queryable, now: number, latest: number): number {
  const ahead = gt(artifactJobs.dueAt, latest)
  if (!db.select({ path: artifactJobs.path }).from(artifactJobs).where(ahead).limit(1).get()) return 0
  return db.update(artifactJobs).set({ dueAt: now }).where(ahead).returning({ path: artifactJobs.path }).all().length
}

/** Paths among these that still have a job. */
export function stillPending(db: Queryable, paths: readonly string[]): Set<string> {
  if (!paths.length) return new Set()
  return new Set(
    statements(db)
      .pending.all({ ids: JSON.stringify(paths) })
      .map((row) => row.path),
  )
}

/** The manifest's hash of each of these paths that has one. */
export function hashesOf(db: Queryable, paths: readonly string[]): Map<string, string> {
  if (!paths.length) return new Map()
  return new Map(
    statements(db)
      .hashes.all({ ids: JSON.stringify(paths) })
      .map((row) => [row.path, row.hash]),
  )
}

/**
 * The manifest's entry for an artifact that renders to nothing (no file): remembered like a
 * hash, so a rebuild knows the path is missing on purpose and need not render it again.
 */
export const ABSENT = ''

/**
 * How a pass ended for one job: the hash of the bytes now on disk (or ABSENT), or a failure. A
 * main file written without its compressed copies (they were written less than a second ago, or
 * could not be: `copiesAttempts` failed) names when they are due: `copiesDueAt`, a job of its own.
 */
export type JobResult =
  { job: Job; hash: string; failed: false; copiesDueAt?: number; copiesSeq?: number; copiesAttempts?: number } | { job: Job; failed: true }

/** Retry delay after `attempts` failed renders: 2 s, doubling, at most a minute. */
export const retryDelayMs = doublingDelay(2_000)

/** The render jobs as a durable queue (queue.ts). */
const renderQueue = durableQueue('artifact_jobs', retryDelayMs)

/** A job's attempts and due time once it failed at `now` (a render, or its copies): the backoff of every retry. */
export const failedOnce = (job: Job, now: number) => renderQueue.failedOnce(job, now)

/**
 * The short write that ends a pass, in one immediate transaction: the manifest takes the new
 * hashes, a job whose `seq` is unchanged is done (or, when failed, waits for its retry; or, with
 * its copies left for later, waits for them), and a job that vanished meanwhile (another process
 * rendered it, perhaps from an older snapshot) is marked again so the newest bytes win. Plain statements, compiled once per connection and
 * reused for every row (`query` caches them), since this runs once per artifact. `alongside`
 * runs inside the same transaction (what the pass changed, recorded with it or not at all: the purge events, the mirror's outbox).
 */
export function finishJobs(client: Database, results: readonly JobResult[], now: number, alongside?: () => void): void {
  const remember = client.query(
    'insert into artifact_files (path, hash) values (?1, ?2) on conflict (path) do update set hash = excluded.hash',
  )
  const mark = client.query('insert into artifact_jobs (path, due_at, seq, attempts) values (?1, ?2, ?3, ?4) on conflict (path) do nothing')
  client
    .transaction(() => {
      for (const result of results) {
        const { path } = result.job
        if (result.failed) {
          renderQueue.retry(client, result.job, now)
          continue
        }
        remember.run(path, result.hash)
        // No row deleted: either re-marked since (kept, with its new seq) or gone (marked again).
        if (!renderQueue.finish(client, result.job)) mark.run(path, now, nextSeq(), 0)
        // Done, but its copies were left for later (or are still being written, or failed): their own job, durable like any other.
        else if (result.copiesDueAt !== undefined)
          mark.run(path, result.copiesDueAt, result.copiesSeq ?? nextSeq(), result.copiesAttempts ?? 0)
      }
      alongside?.()
    })
    .immediate()
}

/**
 * The copies' own jobs (`copiesSeq`) in one short write: those of copies written since are ended,
 * those not written wait for their retry, those still under way are postponed by `confirmMs`; a
 * job marked again since is left as it is.
 */
export function settleCopyJobs(
  client: Database,
  settled: { written: readonly Job[]; failed: readonly Job[] },
  underWay: readonly Job[],
  now: number,
  confirmMs: number,
  landed?: (paths: string[]) => void,
): void {
  const { written, failed } = settled
  if (!written.length && !failed.length && !underWay.length) return
  const postpone = client.query('update artifact_jobs set due_at = ?1 where path = ?2 and seq = ?3')
  client
    .transaction(() => {
      for (const job of written) renderQueue.finish(client, job)
      for (const job of failed) renderQueue.retry(client, job, now)
      for (const { path, seq } of underWay) postpone.run(now + confirmMs, path, seq)
      if (written.length) landed?.(written.map((job) => job.path))
    })
    .immediate()
}

/** Forgets the manifest entries of these paths: their files must be written again. */
export function forgetHashes(db: Queryable, paths: readonly string[]): void {
  for (const part of chunks(paths)) db.delete(artifactFiles).where(inArray(artifactFiles.path, part)).run()
}

/** The whole manifest: path to hash (or ABSENT). */
export const manifest = (db: Queryable): Map<string, string> =>
  new Map(
    db
      .select()
      .from(artifactFiles)
      .all()
      .map((r) => [r.path, r.hash] as const),
  )

/** Paths with a job, due or not. */
export const pendingPaths = (db: Queryable): string[] =>
  db
    .select({ path: artifactJobs.path })
    .from(artifactJobs)
    .all()
    .map((r) => r.path)

/**
 * The backlog as `/healthz` shows it: pending jobs, how many are due or failing, since when the
 * oldest of those in the urgent lane has waited (its `seq` is the time it was marked, in µs; a
 * site-wide re-render is a long backlog by design), and how many wait in the background lane.
 */
export function backlog(
  db: Queryable,
  now: number,
): { pending: number; due: number; oldestDueAt: number | null; failing: number; background: number } {
  const row = db
    .select({
      ...backlogCounts(artifactJobs, now),
      oldest: sql<
        number | null
      >`min(case when ${artifactJobs.lane} = ${LANE.now} and (${artifactJobs.dueAt} <= ${now} or ${artifactJobs.attempts} > 0)
        then (case when ${artifactJobs.seq} > 0 then ${artifactJobs.seq} / 1000 else ${artifactJobs.dueAt} end) end)`,
      background: sql<number>`coalesce(sum(${artifactJobs.lane} = ${LANE.background}), 0)`,
    })
    .from(artifactJobs)
    .get()
  return {
    ...countsOf(row),
    oldestDueAt: row?.oldest ?? null,
    background: row?.background ?? 0,
  }
}

/**
 * The manifest's paths with a file (not ABSENT) under a folder (`en/category/`): what a change's
 * plan may find on disk without walking it inside its write transaction.
 */
export const writtenPathsUnder = (db: Queryable, folder: string): string[] =>
  db
    .select({ path: artifactFiles.path })
    .from(artifactFiles)
    .where(and(gte(artifactFiles.path, folder), lt(artifactFiles.path, `${folder}\uffff`), ne(artifactFiles.hash, ABSENT)))
    .all()
    .map((r) => r.path)
