import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import { webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import type { Change, ChangeListener } from '../../shared/changes.ts'
import { formatTime } from '../../shared/time.ts'
import { buildPayload, subscribesTo } from './events.ts'
import { subscriptionsOf } from './receivers.ts'

/**
 * The outbox side of webhooks: inside the transaction of a post change, one pending delivery per
 * enabled receiver subscribed to its event. A rolled-back change takes its rows with it; a
 * committed one survives any crash. After the commit it only nudges the worker, so the request
 * never waits for (or depends on) the worker being alive.
 */
export function webhookOutbox(ctx: Pick<Ctx, 'config' | 'clock'>, wake: () => void): ChangeListener {
  const queued = new WeakSet<Change>()
  return {
    inTransaction(tx, change) {
      if (change.kind !== 'post' || !change.event) return
      const event = change.event
      const receivers = tx
        .select({ id: webhookReceivers.id, events: webhookReceivers.events })
        .from(webhookReceivers)
        .where(eq(webhookReceivers.enabled, true))
        .all()
        .filter((receiver) => subscribesTo(subscriptionsOf(receiver), event))
      if (!receivers.length) return { webhookQueued: false }
      const occurredAt = ctx.clock()
      const eventId = crypto.randomUUID()
      const payload = JSON.stringify(buildPayload(ctx.config.siteUrl, event, change.after, eventId, occurredAt))
      const now = formatTime(occurredAt)
      tx.insert(webhookDeliveries)
        .values(
          receivers.map((receiver) => ({
            receiverId: receiver.id,
            eventId,
            event,
            postId: change.after.id,
            payload,
            nextAttemptAt: occurredAt.getTime(),
            createdAt: now,
            updatedAt: now,
          })),
        )
        .run()
      queued.add(change)
      return { webhookQueued: true }
    },
    async afterCommit(change) {
      if (queued.has(change)) wake()
    },
  }
}
