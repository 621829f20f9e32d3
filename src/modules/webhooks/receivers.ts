import { createHash } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { LIMITS } from '../../shared/limits.ts'
import { linkFault } from '../../shared/url-rule.ts'
import { receiverHostFault } from './address.ts'
import { isSubscription, SUBSCRIBABLE } from './events.ts'
import type { WebhookSaveReq } from './model.ts'
import { SECRET_MIN_LENGTH } from './terms.ts'

export interface WebhookReceiverRes {
  id: number
  url: string
  events: string[]
  enabled: boolean
  /** Why Folio disabled it (a 410 answer), null otherwise. */
  disabledReason: string | null
  /** Tells two secrets apart without revealing either: the first 8 hex digits of its SHA-256. */
  secretFingerprint: string
  createTime: string
  updateTime: string
}

type ReceiverRow = typeof webhookReceivers.$inferSelect

export const subscriptionsOf = (row: Pick<ReceiverRow, 'events'>): string[] => row.events.split(',')

export const toReceiverRes = (row: ReceiverRow): WebhookReceiverRes => ({
  id: row.id,
  url: row.url,
  events: subscriptionsOf(row),
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  secretFingerprint: createHash('sha256').update(row.secret).digest('hex').slice(0, 8),
  createTime: row.createdAt,
  updateTime: row.updatedAt,
})

/**
 * Why `value` may not receive deliveries (a receiver's or PURGE_URL), or null: the shared link
 * rule, and a public host unless WEBHOOK_ALLOW_PRIVATE=1 (names are checked again at delivery).
 */
export function receiverUrlFault(value: string, allowPrivate: boolean): string | null {
  if (value.length > LIMITS.url) return `at most ${LIMITS.url} characters`
  const link = linkFault(value)
  if (link) return link
  const fault = allowPrivate ? null : receiverHostFault(new URL(value))
  return fault && `${fault}; receivers must be public (set WEBHOOK_ALLOW_PRIVATE=1 to allow)`
}

function receiverUrl(raw: string, allowPrivate: boolean): string {
  const value = raw.trim()
  const fault = receiverUrlFault(value, allowPrivate)
  if (fault) throw invalidField('url', fault)
  return value
}

function subscriptions(events: readonly string[]): string {
  const names = [...new Set(events.map((e) => e.trim()))]
  const unknown = names.filter((name) => !isSubscription(name))
  if (unknown.length) throw invalidField('events', `unknown event(s) ${unknown.join(', ')}; expected ${SUBSCRIBABLE.join(', ')}`)
  return names.join(',')
}

export function receiverById(db: Queryable, id: number): ReceiverRow {
  const row = db.select().from(webhookReceivers).where(eq(webhookReceivers.id, id)).get()
  if (!row) throw new NotFound('webhook receiver', id)
  return row
}

/** Deliveries still waiting for a receiver that will hear no more end as failed, with the reason. */
export function cancelPending(db: Queryable, receiverId: number, reason: string, now: string): void {
  db.update(webhookDeliveries)
    .set({ status: 'failed', failureReason: reason, nextAttemptAt: null, leaseUntil: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.receiverId, receiverId), inArray(webhookDeliveries.status, ['pending', 'sending'])))
    .run()
}

const weakSecret = (why: string) => invalidField('secret', `${why}: at least ${SECRET_MIN_LENGTH} characters`)

/** `POST /api/admin/blog/webhooks/save` and `cli webhook add`: creates or updates one receiver. */
export function saveReceiver(ctx: Pick<Ctx, 'db' | 'config' | 'clock'>, req: WebhookSaveReq): WebhookReceiverRes {
  // The route's schema checks these too; the CLI calls this verb without it.
  if (req.secret !== undefined && req.secret.length < SECRET_MIN_LENGTH) throw weakSecret('too short')
  const url = receiverUrl(req.url, ctx.config.webhookAllowPrivate)
  const events = subscriptions(req.events)
  const now = formatTime(ctx.clock())
  return ctx.db.transaction(
    (tx) => {
      if (!req.id) {
        if (req.secret === undefined) throw weakSecret('required for a new receiver')
        const row = tx
          .insert(webhookReceivers)
          .values({ url, events, secret: req.secret, enabled: req.enabled ?? true, createdAt: now, updatedAt: now })
          .returning()
          .get()
        return toReceiverRes(row)
      }
      const before = receiverById(tx, req.id)
      // The purge endpoint follows PURGE_URL, not this verb.
      if (before.kind !== 'webhook') throw new NotFound('webhook receiver', req.id)
      const enabled = req.enabled ?? before.enabled
      const row = tx
        .update(webhookReceivers)
        .set({
          url,
          events,
          secret: req.secret ?? before.secret,
          enabled,
          disabledReason: enabled ? null : before.disabledReason,
          updatedAt: now,
        })
        .where(eq(webhookReceivers.id, before.id))
        .returning()
        .get()
      if (!enabled) cancelPending(tx, before.id, 'receiver disabled by an administrator', now)
      return toReceiverRes(row!)
    },
    { behavior: 'immediate' },
  )
}

/** `GET /api/admin/blog/webhooks` and `cli webhook list`: every receiver, secrets never included. */
export const listReceivers = (db: Queryable): WebhookReceiverRes[] =>
  db.select().from(webhookReceivers).where(eq(webhookReceivers.kind, 'webhook')).orderBy(webhookReceivers.id).all().map(toReceiverRes)
