import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { artifactSubjects } from '../../db/schema/index.ts'
import { chunks } from './jobs.ts'

// What the artifacts show of a subject (`post:12`, `author:3`, the cache's `cache:marker` and `cache:inputs`), as of its
// last change (schema/publishing.ts `artifact_subjects`): a change's plan compares against it, so
// it re-renders what the old state touched as well as what the new one touches.

/** One subject's record, read and written on every change's plan: compiled once per connection. */
const subjectStatements = preparedOnce((db) => {
  const thisSubject = eq(artifactSubjects.subject, sql.placeholder('subject'))
  return {
    get: db.select({ state: artifactSubjects.state }).from(artifactSubjects).where(thisSubject).prepare(),
    put: db
      .insert(artifactSubjects)
      .values({ subject: sql.placeholder('subject'), state: sql.placeholder('state') })
      .onConflictDoUpdate({ target: artifactSubjects.subject, set: { state: sql`excluded.state` } })
      .prepare(),
    drop: db.delete(artifactSubjects).where(thisSubject).prepare(),
  }
})

export function subjectState<T>(db: Queryable, subject: string): T | null {
  return (subjectStatements(db).get.get({ subject })?.state as T | undefined) ?? null
}

/** Every recorded subject whose name starts with `prefix` (`post:`), by name, as its stored JSON text. */
function subjectTexts(db: Queryable, prefix: string): Map<string, string> {
  const rows = db
    .select({ subject: artifactSubjects.subject, text: sql<string>`${artifactSubjects.state}` })
    .from(artifactSubjects)
    .where(and(gte(artifactSubjects.subject, prefix), lt(artifactSubjects.subject, `${prefix}\uffff`)))
    .all()
  return new Map(rows.map((r) => [r.subject, r.text]))
}

export function saveSubjectState(db: Queryable, subject: string, state: unknown | null): void {
  if (state === null) subjectStatements(db).drop.run({ subject })
  else subjectStatements(db).put.run({ subject, state })
}

/**
 * Brings every subject named `prefix…` to `states` (a rebuild), writing only rows that differ,
 * a few hundred per statement; returns what was recorded before for those that differ (null:
 * nothing was). Compared as stored text, so the states that did not change are never parsed.
 */
export function replaceSubjectStates<T>(db: Queryable, prefix: string, states: ReadonlyMap<string, T>): Map<string, T | null> {
  const recorded = subjectTexts(db, prefix)
  const gone = [...recorded.keys()].filter((subject) => !states.has(subject))
  for (const part of chunks(gone)) db.delete(artifactSubjects).where(inArray(artifactSubjects.subject, part)).run()
  const differing: { subject: string; state: T }[] = []
  const before = new Map<string, T | null>(gone.map((subject) => [subject, JSON.parse(recorded.get(subject)!) as T]))
  for (const [subject, state] of states) {
    const text = recorded.get(subject)
    if (text === JSON.stringify(state)) continue
    differing.push({ subject, state })
    before.set(subject, text === undefined ? null : (JSON.parse(text) as T))
  }
  for (const part of chunks(differing, 200))
    db.insert(artifactSubjects)
      .values(part)
      .onConflictDoUpdate({ target: artifactSubjects.subject, set: { state: sql`excluded.state` } })
      .run()
  return before
}
