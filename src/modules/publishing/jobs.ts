import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { artifactJobs, artifactSubjects } from '../../db/schema/index.ts'

/** Rows per statement: well under SQLite's bound on bound parameters. */
const CHUNK = 400

export const chunks = <T>(items: readonly T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/**
 * Marks artifacts stale, due at `dueAt`. A path already waiting keeps the earlier due time, so
 * a burst of changes to one post is rendered once, and an urgent change is never postponed by a
 * lazy one (engagement) that came first.
 */
export function markStale(db: Queryable, paths: readonly string[], dueAt: number): void {
  for (const part of chunks(paths)) {
    db.insert(artifactJobs)
      .values(part.map((path) => ({ path, dueAt })))
      .onConflictDoUpdate({ target: artifactJobs.path, set: { dueAt: sql`min(${artifactJobs.dueAt}, excluded.due_at)` } })
      .run()
  }
}

/** Due paths, oldest first; with `among`, only those of them. */
export function duePaths(db: Queryable, now: number, limit: number, among?: readonly string[]): string[] {
  return db
    .select({ path: artifactJobs.path })
    .from(artifactJobs)
    .where(and(lte(artifactJobs.dueAt, now), among ? inArray(artifactJobs.path, [...among]) : undefined))
    .orderBy(asc(artifactJobs.dueAt), asc(artifactJobs.path))
    .limit(limit)
    .all()
    .map((r) => r.path)
}

export function clearJobs(db: Queryable, paths: readonly string[]): void {
  for (const part of chunks(paths)) db.delete(artifactJobs).where(inArray(artifactJobs.path, part)).run()
}

/** Puts a failing path back for later instead of retrying it in a tight loop. */
export const postpone = (db: Queryable, path: string, dueAt: number): void =>
  void db.update(artifactJobs).set({ dueAt }).where(eq(artifactJobs.path, path)).run()

export const pendingJobs = (db: Queryable): number =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(artifactJobs)
    .get()?.n ?? 0

export function subjectState<T>(db: Queryable, subject: string): T | null {
  const row = db.select({ state: artifactSubjects.state }).from(artifactSubjects).where(eq(artifactSubjects.subject, subject)).get()
  return (row?.state as T | undefined) ?? null
}

export function saveSubjectState(db: Queryable, subject: string, state: unknown | null): void {
  if (state === null) db.delete(artifactSubjects).where(eq(artifactSubjects.subject, subject)).run()
  else db.insert(artifactSubjects).values({ subject, state }).onConflictDoUpdate({ target: artifactSubjects.subject, set: { state } }).run()
}

export const clearSubjects = (db: Queryable): void => void db.delete(artifactSubjects).run()
