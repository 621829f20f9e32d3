import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, updatedAt } from './columns.ts'
import { posts } from './posts.ts'

/** Who a receiver is (the column's values; no SQL constraint, so a new kind needs no migration). */
const RECEIVER_KINDS = ['webhook', 'purge', 'indexnow', 'websub'] as const
export type ReceiverKind = (typeof RECEIVER_KINDS)[number]

/** Where webhook events go. The secret signs deliveries and is never served back. */
export const webhookReceivers = sqliteTable('webhook_receivers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  /** Subscribed event names (`blog.*` is the wildcard), comma-separated. */
  events: text('events').notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  /** Why the service disabled the receiver (a 410 answer); null when an admin set `enabled`. */
  disabledReason: text('disabled_reason'),
  /**
   * `webhook`: an administrator's receiver. `purge`: the purge endpoint of PURGE_URL, kept in line
   * with the configuration at start (webhooks/endpoints.ts), never listed nor saved as a receiver.
   * `indexnow`, `websub`: the same for INDEXNOW_KEY and WEBSUB_HUB (docs/discovery.md).
   */
  kind: text('kind', { enum: RECEIVER_KINDS }).notNull().default('webhook'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/**
 * The outbox: one row per event and receiver, written in the transaction of the change. The
 * worker's whole state lives here; times it schedules by are epoch milliseconds.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    receiverId: integer('receiver_id')
      .notNull()
      .references(() => webhookReceivers.id),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    postId: integer('post_id').references(() => posts.id),
    /** The exact JSON body sent on every attempt, so retries and redeliveries carry the same bytes. */
    payload: text('payload').notNull(),
    /** `pending` (due at nextAttemptAt), `sending` (claimed until leaseUntil), `delivered`, `failed`. */
    status: text('status', { enum: ['pending', 'sending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at'),
    leaseUntil: integer('lease_until'),
    lastHttpStatus: integer('last_http_status'),
    lastResponse: text('last_response'),
    lastDurationMs: integer('last_duration_ms'),
    failureReason: text('failure_reason'),
    deliveredAt: text('delivered_at'),
    /** A manual redelivery points at the delivery it repeats. */
    redeliveryOf: integer('redelivery_of'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // One index only: every one more is written by each publish. Waiting rows are few, so finding a
  // receiver's waiting rows (a rare 410 or disable) goes through this one too.
  (table) => [index('webhook_deliveries_due').on(table.status, table.nextAttemptAt)],
)

/** Every attempt of a delivery, as the delivery log shows it. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer('attempt').notNull(),
    httpStatus: integer('http_status'),
    response: text('response'),
    durationMs: integer('duration_ms').notNull(),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
  },
  (table) => [index('webhook_attempts_delivery').on(table.deliveryId)],
)
