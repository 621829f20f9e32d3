import { and, eq, sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { idIn, preparedOnce } from '../../db/prepared.ts'
import { postSchedules } from '../../db/schema/index.ts'
import type { ChangeListener } from '../../shared/changes.ts'
import { invalidField } from '../../shared/errors.ts'
import { formatTime, parseTime } from '../../shared/time.ts'
import type { ScheduleReq, WriterPostRes } from './model.ts'
import { scheduleOf, toWriterPostRes } from './present.ts'
import { livePost } from './repo.ts'
import { POST_STATUS } from './visibility.ts'

export type ScheduleAction = (typeof postSchedules.$inferSelect)['action']

/** The time a schedule field asks for: undefined keeps the stored one, null cancels, else a future UTC time. */
function requestedTime(field: keyof ScheduleReq, value: string | null | undefined, now: Date): string | null | undefined {
  if (value === undefined || value === null) return value
  const time = parseTime(value)
  if (!time) throw invalidField(field, 'expected a UTC time like 2026-03-01 10:00:00')
  if (time.getTime() <= now.getTime()) throw invalidField(field, `must be later than now (${formatTime(now)} UTC)`)
  return formatTime(time)
}

function setSchedule(db: Queryable, postId: number, action: ScheduleAction, dueAt: string | null): void {
  if (dueAt === null) {
    db.delete(postSchedules)
      .where(and(eq(postSchedules.postId, postId), eq(postSchedules.action, action)))
      .run()
    return
  }
  db.insert(postSchedules)
    .values({ postId, action, dueAt })
    .onConflictDoUpdate({ target: [postSchedules.postId, postSchedules.action], set: { dueAt, claimedUntil: null } })
    .run()
}

/**
 * `POST posts/{id}/schedule`: sets or cancels when a post is published (`publishAt`, a saved
 * post that is not published) and taken offline (`unpublishAt`, a post that is published or
 * will be). When due, the scheduler publishes through the same verb as `posts/{id}/publish`.
 */
export function schedulePost(ctx: Ctx, id: number, req: ScheduleReq): WriterPostRes {
  if (req.publishAt === undefined && req.unpublishAt === undefined)
    throw invalidField('publishAt', 'send publishAt and/or unpublishAt (a UTC time, or null to cancel)')
  const now = ctx.clock()
  const publishAt = requestedTime('publishAt', req.publishAt, now)
  const unpublishAt = requestedTime('unpublishAt', req.unpublishAt, now)
  const row = ctx.db.transaction(
    (tx) => {
      const post = livePost(tx, id)
      const published = post.status === POST_STATUS.published
      if (publishAt && published) throw invalidField('publishAt', 'the post is already published')
      const stored = scheduleOf(tx, id)
      const willPublish = publishAt === undefined ? stored.scheduledAt : publishAt
      const willUnpublish = unpublishAt === undefined ? stored.unpublishAt : unpublishAt
      if (unpublishAt && !published && !willPublish)
        throw invalidField('unpublishAt', 'the post is not published and has no publishAt to go online first')
      if (willPublish && willUnpublish && willUnpublish <= willPublish) throw invalidField('unpublishAt', 'must be later than publishAt')
      if (publishAt !== undefined) setSchedule(tx, id, 'publish', publishAt)
      if (unpublishAt !== undefined) setSchedule(tx, id, 'unpublish', unpublishAt)
      return post
    },
    { behavior: 'immediate' },
  )
  return toWriterPostRes(ctx.db, row)
}

/** A post's schedules of the given actions (a JSON array), removed in one prepared statement. */
const dropSchedules = preparedOnce((db) =>
  db
    .delete(postSchedules)
    .where(and(eq(postSchedules.postId, sql.placeholder('postId')), idIn(postSchedules.action, 'actions')))
    .prepare(),
)

/**
 * Keeps schedules true to the post, inside the transaction of every post change: a post that
 * is published (by any verb, the scheduler included) has nothing left to publish, one that left
 * the published state has nothing left to take offline, and a deleted post has no schedule.
 * Because the scheduler's publish removes its row in the same transaction, a crash either
 * leaves the post unpublished with its schedule, or published without it: never twice.
 */
export const scheduleUpkeep: ChangeListener = {
  inTransaction(tx, change) {
    if (change.kind !== 'post') return
    const { before, after } = change
    const done: ScheduleAction[] = after.deletedAt
      ? ['publish', 'unpublish']
      : after.status === POST_STATUS.published
        ? ['publish']
        : before?.status === POST_STATUS.published
          ? ['unpublish']
          : []
    if (done.length) dropSchedules(tx).run({ postId: after.id, actions: JSON.stringify(done) })
  },
}
