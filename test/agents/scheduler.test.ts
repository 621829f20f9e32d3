import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { loadConfig } from '../../src/config.ts'
import type { Ctx } from '../../src/context.ts'
import { postSchedules } from '../../src/db/schema/index.ts'
import { compose } from '../../src/main.ts'
import { livePost } from '../../src/modules/posts/repo.ts'
import { savePost } from '../../src/modules/posts/save.ts'
import { schedulePost } from '../../src/modules/posts/schedule.ts'
import { CLAIM_MS, runDueSchedules } from '../../src/modules/posts/scheduler.ts'
import type { Caller } from '../../src/modules/tokens/tokens.ts'
import { createLogger } from '../../src/shared/log.ts'
import { publishablePost } from '../support/fixtures.ts'
import { databaseAtFirstMigration } from '../support/first-migration.ts'

// The scheduler's verb in-process on a real SQLite file, with the clock injected.
const base = mkdtempSync(join(tmpdir(), 'folio-scheduler-'))
let service: Awaited<ReturnType<typeof compose>>
let categoryId: number
const caller: Caller = { tokenId: 1, name: 'test', scopes: new Set(['blog:write', 'blog:publish']) }
const T0 = Date.now()
/** The service's context with its clock fixed `seconds` after T0. */
const at = (seconds: number): Ctx => ({ ...service.ctx, clock: () => new Date(T0 + seconds * 1000) })
const time = (seconds: number) => new Date(T0 + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')

/** A database as main left it before schedules existed (0000_init only), holding a category. */
function databaseBeforeSchedules(dataDir: string): number {
  const db = databaseAtFirstMigration(dataDir, base)
  const id = db.$client.query("insert into categories (slug, name_en, name_zh) values ('guides', 'Guides', '指南') returning id").get() as {
    id: number
  }
  db.$client.close()
  return id.id
}

beforeAll(async () => {
  const config = loadConfig({ DATA_DIR: join(base, 'data'), CACHE_DIR: join(base, 'cache') })
  categoryId = databaseBeforeSchedules(config.dataDir)
  // The upgrade: compose applies the schedules migration to the existing database.
  service = await compose(config, { log: createLogger('error') })
})
afterAll(async () => {
  await service.close()
  rmSync(base, { recursive: true, force: true })
})

async function scheduledDraft(publishAtSeconds: number, overrides: Record<string, unknown> = {}) {
  const draft = await savePost(service.ctx, caller, { ...publishablePost(categoryId, null), ...overrides, status: 0 } as never)
  schedulePost(at(0), draft.id, { publishAt: time(publishAtSeconds) })
  return draft.id
}

test('nothing runs before the due time; at it the post is published and the schedule is gone', async () => {
  const id = await scheduledDraft(60)
  expect(await runDueSchedules(at(59))).toEqual([])
  expect(livePost(service.ctx.db, id).status).toBe(0)
  expect(await runDueSchedules(at(61))).toEqual([{ postId: id, action: 'publish', dueAt: time(60), outcome: 'done' }])
  expect(livePost(service.ctx.db, id).status).toBe(1)
  expect(service.ctx.db.select().from(postSchedules).where(eq(postSchedules.postId, id)).all()).toEqual([])
  expect(await runDueSchedules(at(120))).toEqual([])
})

test('two runs at once carry a schedule out once: the conditional claim lets one through', async () => {
  const id = await scheduledDraft(60)
  const [a, b] = await Promise.all([runDueSchedules(at(61)), runDueSchedules(at(61))])
  expect([...a!, ...b!]).toEqual([{ postId: id, action: 'publish', dueAt: time(60), outcome: 'done' }])
})

test('a claim left by a run that died holds until it expires, then the schedule is carried out (catch-up)', async () => {
  const id = await scheduledDraft(60)
  // A run claimed it at 61 s and the process died before publishing.
  service.ctx.db
    .update(postSchedules)
    .set({ claimedUntil: T0 + 61_000 + CLAIM_MS })
    .where(eq(postSchedules.postId, id))
    .run()
  expect(await runDueSchedules(at(62))).toEqual([])
  const late = 61 + CLAIM_MS / 1000 + 1
  expect((await runDueSchedules(at(late))).map((r) => [r.postId, r.outcome])).toEqual([[id, 'done']])
  expect(livePost(service.ctx.db, id).status).toBe(1)
})

test('a blocked schedule reports blocked and leaves the post a draft without a schedule', async () => {
  const id = await scheduledDraft(60, { coverAlt: '' })
  expect((await runDueSchedules(at(61))).map((r) => r.outcome)).toEqual(['blocked'])
  expect(livePost(service.ctx.db, id).status).toBe(0)
  expect(service.ctx.db.select().from(postSchedules).where(eq(postSchedules.postId, id)).all()).toEqual([])
})
