import { eq, sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Db } from '../../db/client.ts'
import { webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import type { Change, ChangeListener } from '../../shared/changes.ts'
import { formatTime } from '../../shared/time.ts'
import { commentCreated } from './comment-event.ts'
import { buildPayload, COMMENT_CREATED, subscribesTo, type WebhookEvent } from './events.ts'
import { postFacts } from './post-facts.ts'
import { subscriptionsOf } from './receivers.ts'

/**
 * Queues events: one pending delivery per enabled receiver subscribed to the event. Its statements
 * are prepared once (building the SQL on every publish cost ~8% of its latency,
 * bench/webhooks.bench.ts) and run on the connection that holds the caller's transaction, so the
 * rows are part of it: a rolled-back change takes them with it, a committed one survives any crash.
 */
export function createEventQueue(db: Db) {
  const enabledReceivers = db
    .select({ id: webhookReceivers.id, events: webhookReceivers.events })
    .from(webhookReceivers)
    .where(eq(webhookReceivers.enabled, true))
    .prepare()
  const insertDelivery = db
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
  /** Whether any receiver takes `event`; `payloadOf` builds its body once, given the new event id. */
  return function queue(event: WebhookEvent, postId: number | null, occurredAt: Date, payloadOf: (eventId: string) => object): boolean {
    const receivers = enabledReceivers.all().filter((receiver) => subscribesTo(subscriptionsOf(receiver), event))
    if (!receivers.length) return false
    const eventId = crypto.randomUUID()
    const payload = JSON.stringify(payloadOf(eventId))
    const now = formatTime(occurredAt)
    for (const receiver of receivers)
      insertDelivery.run({ receiverId: receiver.id, eventId, event, postId, payload, nextAttemptAt: occurredAt.getTime(), now })
    return true
  }
}

/**
 * The outbox side of webhooks: inside the transaction of a post change, its event is queued.
 * After the commit it only nudges the worker, so the request never waits for (or depends on) the
 * worker being alive.
 */
export function webhookOutbox(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>, wake: () => void): ChangeListener {
  const queue = createEventQueue(ctx.db)
  const queued = new WeakSet<Change>()
  return {
    inTransaction(tx, change) {
      if (change.kind === 'comment') {
        const occurredAt = ctx.clock()
        if (
          !queue(COMMENT_CREATED, change.postId, occurredAt, (eventId) =>
            commentCreated(tx, ctx.config.siteUrl, change, eventId, occurredAt),
          )
        )
          return
        queued.add(change)
        return
      }
      if (change.kind !== 'post' || !change.event) return
      const occurredAt = ctx.clock()
      const { event, after, scheduleFailure } = change
      const any = queue(event, after.id, occurredAt, (eventId) =>
        buildPayload(ctx.config.siteUrl, event, after, eventId, occurredAt, postFacts(tx, after), scheduleFailure),
      )
      if (!any) return { webhookQueued: false }
      queued.add(change)
      return { webhookQueued: true }
    },
    async afterCommit(change) {
      if (queued.has(change)) wake()
    },
  }
}
