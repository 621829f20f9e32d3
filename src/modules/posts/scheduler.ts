import { and, asc, eq, isNull, lt, lte, or } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import { postSchedules } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { livePost } from './repo.ts'
import type { ScheduleAction } from './schedule.ts'
import { SeoBlocked } from './seo.ts'
import { publishPost, takeOffline } from './status.ts'
import { POST_STATUS } from './visibility.ts'

/** How long a claim keeps other runs off a schedule; a run that died releases it by expiry. */
export const CLAIM_MS = 60_000
/** Schedules carried out per run; the next run takes the rest. */
export const RUN_BATCH = 20

type ScheduleRow = typeof postSchedules.$inferSelect

export interface ScheduleRun {
  postId: number
  action: ScheduleAction
  dueAt: string
  /** `done`: published or taken offline; `blocked`: the SEO gate refused (schedule_failed sent); `skipped`: nothing to do any more. */
  outcome: 'done' | 'blocked' | 'skipped' | 'error'
}

const samePending = (row: Pick<ScheduleRow, 'postId' | 'action' | 'dueAt'>) =>
  and(eq(postSchedules.postId, row.postId), eq(postSchedules.action, row.action), eq(postSchedules.dueAt, row.dueAt))

const unclaimed = (nowMs: number) => or(isNull(postSchedules.claimedUntil), lt(postSchedules.claimedUntil, nowMs))

/** Removes a schedule once carried out, unless it was moved meanwhile (a new `dueAt` is a new schedule). */
const release = (ctx: Ctx, row: ScheduleRow) => ctx.db.delete(postSchedules).where(samePending(row)).run()

/** A blocked scheduled publish: the post stays a draft, the schedule goes, receivers learn which checks failed. */
async function failSchedule(ctx: Ctx, row: ScheduleRow, blocked: SeoBlocked): Promise<void> {
  const { failedItems } = blocked.data as { failedItems: string[] }
  await ctx.changes.write(ctx.db, (tx, record) => {
    if (!tx.delete(postSchedules).where(samePending(row)).returning().get()) return
    const post = livePost(tx, row.postId)
    record({
      kind: 'post',
      event: 'blog.post.schedule_failed',
      before: post,
      after: post,
      scheduleFailure: { scheduledAt: row.dueAt, failedItems },
    })
  })
}

async function carryOut(ctx: Ctx, row: ScheduleRow): Promise<ScheduleRun['outcome']> {
  try {
    if (row.action === 'publish') await publishPost(ctx, row.postId)
    else if (livePost(ctx.db, row.postId).status === POST_STATUS.published) await takeOffline(ctx, row.postId)
    else {
      release(ctx, row)
      return 'skipped'
    }
    release(ctx, row)
    return 'done'
  } catch (error) {
    if (error instanceof SeoBlocked) {
      await failSchedule(ctx, row, error)
      return 'blocked'
    }
    if (error instanceof NotFound) {
      release(ctx, row)
      return 'skipped'
    }
    // Left claimed: the next run after the claim expires tries again.
    ctx.log.error('scheduled transition failed', { postId: row.postId, action: row.action, error: String(error) })
    return 'error'
  }
}

/**
 * Carries out the schedules due at `ctx.clock()`, oldest first, at most RUN_BATCH of them. Each
 * is claimed with a conditional UPDATE first, so two runs (or two processes) never both act on
 * it. Due times missed while the server was down are simply due: the first run after a start
 * catches up.
 */
export async function runDueSchedules(ctx: Ctx): Promise<ScheduleRun[]> {
  const now = ctx.clock()
  const nowMs = now.getTime()
  const due = ctx.db
    .select()
    .from(postSchedules)
    .where(and(lte(postSchedules.dueAt, formatTime(now)), unclaimed(nowMs)))
    .orderBy(asc(postSchedules.dueAt))
    .limit(RUN_BATCH)
    .all()
  const runs: ScheduleRun[] = []
  for (const row of due) {
    const claimed = ctx.db
      .update(postSchedules)
      .set({ claimedUntil: nowMs + CLAIM_MS })
      .where(and(samePending(row), unclaimed(nowMs)))
      .returning()
      .get()
    if (!claimed) continue
    runs.push({ postId: row.postId, action: row.action, dueAt: row.dueAt, outcome: await carryOut(ctx, claimed) })
  }
  return runs
}

/**
 * The scheduler of the running server: a run at start (catch-up), then one every `intervalMs`.
 * Runs never overlap; `stop` waits for the current one.
 */
export function startScheduler(ctx: Ctx, intervalMs = 1000) {
  let stopped = false
  let timer: Timer | undefined
  let current: Promise<void> = Promise.resolve()
  const run = () => {
    current = runDueSchedules(ctx)
      .then((runs) => {
        for (const r of runs) ctx.log.info('schedule carried out', { ...r })
      })
      .catch((error) => ctx.log.error('scheduler run failed', { error: String(error) }))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs)
      })
  }
  run()
  return {
    async stop(): Promise<void> {
      stopped = true
      clearTimeout(timer)
      await current
    },
  }
}
