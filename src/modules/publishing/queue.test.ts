import { afterAll, expect, test } from 'bun:test'
import { migratedTempDb } from '../../../test/support/temp-db.ts'
import { artifactJobs, artifactMirrorJobs } from '../../db/schema/index.ts'
import { backlog, LANE } from './jobs.ts'
import { mirrorBacklog } from './mirror/outbox.ts'

// The two durable queues' backlogs as /healthz shows them, on a real migrated SQLite file: the
// counts they share (backlogCounts) and what each adds.
const { db, dispose } = migratedTempDb('folio-queue-')
afterAll(dispose)

test('each durable queue counts its entries, those due and those that failed; the render jobs add their lanes', () => {
  const now = 1_000_000
  // Not due yet; due and failed once; due and fresh (background lane); due exactly now.
  const rows = [
    { path: 'a/@', dueAt: now + 1, seq: 900_000_000, attempts: 0, lane: LANE.now },
    { path: 'b/@', dueAt: now - 5, seq: 800_000_000, attempts: 1, lane: LANE.now },
    { path: 'c/@', dueAt: now - 9, seq: 700_000_000, attempts: 0, lane: LANE.background },
    { path: 'd/@', dueAt: now, seq: 950_000_000, attempts: 0, lane: LANE.now },
  ]
  expect(backlog(db, now)).toEqual({ pending: 0, due: 0, failing: 0, oldestDueAt: null, background: 0 })
  expect(mirrorBacklog(db, now)).toEqual({ pending: 0, due: 0, failing: 0, oldestMs: null })

  db.insert(artifactJobs).values(rows).run()
  db.insert(artifactMirrorJobs)
    .values(rows.map(({ lane: _, ...row }) => ({ ...row, op: 'put' as const })))
    .run()
  // The oldest urgent job waiting is b (due and failing), by the time it was marked (seq in µs).
  expect(backlog(db, now)).toEqual({ pending: 4, due: 3, failing: 1, oldestDueAt: 800_000, background: 1 })
  // The mirror's oldest is its lowest seq (c: 700,000 ms), as an age at `now`.
  expect(mirrorBacklog(db, now)).toEqual({ pending: 4, due: 3, failing: 1, oldestMs: now - 700_000 })
})
