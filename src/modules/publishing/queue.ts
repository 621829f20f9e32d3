import type { Database } from 'bun:sqlite'
import { sql, type Column } from 'drizzle-orm'

/** One entry of a durable queue as its worker read it: its key, the sequence it was recorded under, its failed attempts. */
export interface QueueEntry {
  path: string
  seq: number
  attempts: number
}

/** A retry delay after `attempts` failures: `firstMs`, doubling, at most a minute. */
export const doublingDelay =
  (firstMs: number) =>
  (attempts: number): number =>
    Math.min(60_000, firstMs * 2 ** Math.max(0, attempts - 1))

/**
 * What `/healthz` counts of a durable queue, as columns of the select that reads its backlog:
 * its entries, those due at `now`, and those that have failed at least once.
 */
export const backlogCounts = (table: { dueAt: Column; attempts: Column }, now: number) => ({
  pending: sql<number>`count(*)`,
  due: sql<number>`coalesce(sum(${table.dueAt} <= ${now}), 0)`,
  failing: sql<number>`coalesce(sum(${table.attempts} > 0), 0)`,
})

/** The counts of `backlogCounts` as read (none when the select found no row). */
export const countsOf = (row: { pending: number; due: number; failing: number } | undefined) => ({
  pending: row?.pending ?? 0,
  due: row?.due ?? 0,
  failing: row?.failing ?? 0,
})

/**
 * A durable queue in SQLite: one row per key (`path`), with its due time (`due_at`), the sequence
 * it was last recorded under (`seq`) and its failed attempts. The render jobs (`artifact_jobs`,
 * jobs.ts) and the artifact mirror's outbox (`artifact_mirror_jobs`, mirror/outbox.ts) are two.
 * An entry is done only while its `seq` is the one its worker read, so a key recorded again
 * meanwhile stays for the next round; a failure waits `delay(attempts)` before its retry.
 * Plain statements, compiled once per connection (`query` caches them), for the per-entry paths.
 */
export function durableQueue(table: 'artifact_jobs' | 'artifact_mirror_jobs', delay: (attempts: number) => number) {
  /** An entry's attempts and due time after one more failed attempt at `now`. */
  const failedOnce = (entry: QueueEntry, now: number): { attempts: number; dueAt: number } => {
    const attempts = entry.attempts + 1
    return { attempts, dueAt: now + delay(attempts) }
  }
  return {
    delay,
    failedOnce,
    /** Ends an entry unless it was recorded again since it was read; whether it ended. */
    finish(client: Database, entry: QueueEntry): boolean {
      return client.query(`delete from ${table} where path = ?1 and seq = ?2`).run(entry.path, entry.seq).changes > 0
    },
    /** One more failed attempt: due again after the delay (unless recorded again since it was read). */
    retry(client: Database, entry: QueueEntry, now: number): void {
      const { attempts, dueAt } = failedOnce(entry, now)
      client
        .query(`update ${table} set attempts = ?1, due_at = ?2 where path = ?3 and seq = ?4`)
        .run(attempts, dueAt, entry.path, entry.seq)
    },
  }
}
