import { asc, count, desc, eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { webhookAttempts, webhookDeliveries as d, webhookReceivers as r } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import { DomainError, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { receiverById } from './receivers.ts'
import { maxAttempts } from './retry-policy.ts'
import type { DeliveryStatus } from './terms.ts'

export interface WebhookDeliveryRes {
  id: number
  eventId: string
  event: string
  postId: number | null
  receiverId: number
  receiverUrl: string
  status: DeliveryStatus
  /** Attempts made so far; `retryCount` is those after the first. */
  attempts: number
  retryCount: number
  maxAttempts: number
  lastHttpStatus: number | null
  /** The start of the receiver's last answer (at most 1 KiB). */
  lastResponse: string | null
  lastDurationMs: number | null
  failureReason: string | null
  nextAttemptAt: string | null
  deliveredAt: string | null
  redeliveryOf: number | null
  createTime: string
  updateTime: string
}

export interface WebhookAttemptRes {
  attempt: number
  httpStatus: number | null
  response: string | null
  durationMs: number
  failureReason: string | null
  createTime: string
}

type Row = { delivery: typeof d.$inferSelect; receiverUrl: string }

const toDeliveryRes = (ctx: Pick<Ctx, 'config'>, { delivery, receiverUrl }: Row): WebhookDeliveryRes => ({
  id: delivery.id,
  eventId: delivery.eventId,
  event: delivery.event,
  postId: delivery.postId,
  receiverId: delivery.receiverId,
  receiverUrl,
  status: delivery.status,
  attempts: delivery.attempts,
  retryCount: Math.max(0, delivery.attempts - 1),
  // A delivery that failed for good will make no more attempts than it made, whatever
  // WEBHOOK_RETRY_DELAYS says now (the CLI may run with another): `3/3` beside "gave up after 3".
  maxAttempts: delivery.status === 'failed' ? delivery.attempts : maxAttempts(ctx.config.webhookRetryDelaysMs),
  lastHttpStatus: delivery.lastHttpStatus,
  lastResponse: delivery.lastResponse,
  lastDurationMs: delivery.lastDurationMs,
  failureReason: delivery.failureReason,
  nextAttemptAt: delivery.status === 'pending' && delivery.nextAttemptAt !== null ? formatTime(new Date(delivery.nextAttemptAt)) : null,
  deliveredAt: delivery.deliveredAt,
  redeliveryOf: delivery.redeliveryOf,
  createTime: delivery.createdAt,
  updateTime: delivery.updatedAt,
})

const rows = (db: Queryable) => db.select({ delivery: d, receiverUrl: r.url }).from(d).innerJoin(r, eq(r.id, d.receiverId))

/** `GET /api/admin/blog/webhooks/events` and `cli webhook deliveries`: newest first, optionally one status. */
export function listDeliveries(
  ctx: Pick<Ctx, 'db' | 'config'>,
  query: { status?: DeliveryStatus; current: number; size: number },
): Page<WebhookDeliveryRes> {
  const filter = query.status ? eq(d.status, query.status) : undefined
  const total = ctx.db.select({ n: count() }).from(d).where(filter).get()?.n ?? 0
  const records = rows(ctx.db)
    .where(filter)
    .orderBy(desc(d.id))
    .limit(query.size)
    .offset((query.current - 1) * query.size)
    .all()
    .map((row) => toDeliveryRes(ctx, row))
  return { total, size: query.size, current: query.current, records }
}

function deliveryRow(db: Queryable, id: number): Row {
  const row = rows(db).where(eq(d.id, id)).get()
  if (!row) throw new NotFound('webhook delivery', id)
  return row
}

/** `GET /api/admin/blog/webhooks/events/{id}`: one delivery with every attempt and the body it sends. */
export function deliveryDetail(ctx: Pick<Ctx, 'db' | 'config'>, id: number) {
  const row = deliveryRow(ctx.db, id)
  const attemptLog: WebhookAttemptRes[] = ctx.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, id))
    .orderBy(asc(webhookAttempts.id))
    .all()
    .map(({ attempt, httpStatus, response, durationMs, failureReason, createdAt }) => ({
      attempt,
      httpStatus,
      response,
      durationMs,
      failureReason,
      createTime: createdAt,
    }))
  return { ...toDeliveryRes(ctx, row), payload: row.delivery.payload, attemptLog }
}

/**
 * `POST /api/admin/blog/webhooks/events/{id}/redeliver`: queues a new delivery (new delivery id,
 * same event id and body) of a finished one, due now. The original stays in the log as it ended.
 */
export function redeliver(ctx: Pick<Ctx, 'db' | 'config' | 'clock'>, id: number): WebhookDeliveryRes {
  const now = ctx.clock()
  const stamp = formatTime(now)
  const created = ctx.db.transaction(
    (tx) => {
      const { delivery } = deliveryRow(tx, id)
      if (delivery.status === 'pending' || delivery.status === 'sending') {
        throw new DomainError('WEBHOOK_DELIVERY_PENDING', 400, `Delivery ${id} is still ${delivery.status}; it will be attempted anyway.`, {
          errors: [{ field: 'id', message: `delivery is ${delivery.status}` }],
        })
      }
      const receiver = receiverById(tx, delivery.receiverId)
      if (!receiver.enabled) {
        throw new DomainError('WEBHOOK_RECEIVER_DISABLED', 400, `Receiver ${receiver.id} is disabled; enable it before redelivering.`, {
          errors: [{ field: 'id', message: 'receiver is disabled' }],
        })
      }
      return tx
        .insert(d)
        .values({
          receiverId: delivery.receiverId,
          eventId: delivery.eventId,
          event: delivery.event,
          postId: delivery.postId,
          payload: delivery.payload,
          nextAttemptAt: now.getTime(),
          redeliveryOf: delivery.id,
          createdAt: stamp,
          updatedAt: stamp,
        })
        .returning({ id: d.id })
        .get()
    },
    { behavior: 'immediate' },
  )
  return toDeliveryRes(ctx, deliveryRow(ctx.db, created.id))
}
