import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import { webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { eventTime } from './post-facts.ts'
import { PING, type PingPayload } from './events.ts'
import { receiverById, toReceiverRes, type WebhookReceiverRes } from './receivers.ts'

/** A webhook receiver of an administrator (never the purge endpoint), or NotFound. */
function ownReceiver(ctx: Pick<Ctx, 'db'>, id: number) {
  const receiver = receiverById(ctx.db, id)
  if (receiver.kind !== 'webhook') throw new NotFound('webhook receiver', id)
  return receiver
}

/**
 * `POST /api/admin/blog/webhooks/{id}/ping`: queues one `blog.ping` delivery to this receiver
 * alone, whatever it subscribes to, signed and retried like any other and shown in the delivery
 * log, so an owner can check the URL and the secret before a real event depends on them.
 */
export function pingReceiver(ctx: Pick<Ctx, 'db' | 'clock'>, id: number): { deliveryId: number } {
  const receiver = ownReceiver(ctx, id)
  const now = ctx.clock()
  const eventId = crypto.randomUUID()
  const payload: PingPayload = {
    id: eventId,
    event: PING,
    occurredAt: eventTime(now),
    receiver: { id: receiver.id, url: receiver.url },
    message: 'A test ping from Folio: this receiver is reachable and can check the signature.',
  }
  const row = ctx.db
    .insert(webhookDeliveries)
    .values({
      receiverId: receiver.id,
      eventId,
      event: PING,
      postId: null,
      payload: JSON.stringify(payload),
      nextAttemptAt: now.getTime(),
      createdAt: formatTime(now),
      updatedAt: formatTime(now),
    })
    .returning({ id: webhookDeliveries.id })
    .get()
  return { deliveryId: row.id }
}

/**
 * `POST /api/admin/blog/webhooks/{id}/rotate-secret`: a new signing secret (32 random bytes, hex),
 * answered once and stored; every delivery from now on, retries of queued ones included, is
 * signed with it.
 */
export function rotateReceiverSecret(ctx: Pick<Ctx, 'db' | 'clock'>, id: number): { receiver: WebhookReceiverRes; secret: string } {
  ownReceiver(ctx, id)
  const secret = randomBytes(32).toString('hex')
  const row = ctx.db
    .update(webhookReceivers)
    .set({ secret, updatedAt: formatTime(ctx.clock()) })
    .where(eq(webhookReceivers.id, id))
    .returning()
    .get()!
  return { receiver: toReceiverRes(row), secret }
}
