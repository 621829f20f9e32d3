import { eq, sql } from 'drizzle-orm'
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
export function webhookOutbox(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>, wake: () => void): ChangeListener {
  // Prepared once: building the SQL on every publish cost ~8% of its latency (bench/webhooks.bench.ts).
  // They run on the connection that holds the caller's transaction, so they are part of it.
  const enabledReceivers = ctx.db
    .select({ id: webhookReceivers.id, events: webhookReceivers.events })
    .from(webhookReceivers)
    .where(eq(webhookReceivers.enabled, true))
    .prepare()
  const insertDelivery = ctx.db
    .insert(webhookDeliveries)
    .values({
      receiverId: sql.placeholder('receiverId'),
      eventId: sql.placeholder('eventId'),
      event: sql.placeholder('event'),
      postId: sql.placeholder('postId'),
      payload: sql.placeholder('payload'),
      nextAttemptAt: sql.placeholder('nextAttemptAt'),
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
    })
    .prepare()
  const queued = new WeakSet<Change>()
  return {
    inTransaction(_tx, change) {
      if (change.kind !== 'post' || !change.event) return
      const event = change.event
      const receivers = enabledReceivers.all().filter((receiver) => subscribesTo(subscriptionsOf(receiver), event))
      if (!receivers.length) return { webhookQueued: false }
      const occurredAt = ctx.clock()
      const eventId = crypto.randomUUID()
      const payload = JSON.stringify(buildPayload(ctx.config.siteUrl, event, change.after, eventId, occurredAt, change.scheduleFailure))
      const now = formatTime(occurredAt)
      for (const receiver of receivers) {
        insertDelivery.run({
          receiverId: receiver.id,
          eventId,
          event,
          postId: change.after.id,
          payload,
          nextAttemptAt: occurredAt.getTime(),
          now,
        })
      }
      queued.add(change)
      return { webhookQueued: true }
    },
    async afterCommit(change) {
      if (queued.has(change)) wake()
    },
  }
}
