import { sql } from 'drizzle-orm'
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, updatedAt } from './columns.ts'
import { posts } from './posts.ts'

/**
 * Reader comments. `content` is plain text (never HTML). Email, IP, user agent and spam reason
 * exist for moderation only; the public shape is built by an allow-list (engagement/present.ts).
 */
export const comments = sqliteTable(
  'comments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id),
    parentId: integer('parent_id').references((): AnySQLiteColumn => comments.id),
    authorName: text('author_name').notNull(),
    authorEmail: text('author_email').notNull().default(''),
    content: text('content').notNull(),
    /** 0 pending, 1 approved, 2 rejected/spam (spec §3.2). */
    status: integer('status').notNull().default(0),
    spamReason: text('spam_reason').notNull().default(''),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    moderatedAt: text('moderated_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('comments_post').on(table.postId, table.status, table.id),
    index('comments_status').on(table.status, table.id),
    index('comments_parent').on(table.parentId),
    // The per-IP posting limit and the repeated-content rule look back in time per IP.
    index('comments_ip').on(table.ip, table.createdAt),
  ],
)

/**
 * Accepted clap requests, one row each. The sum of `added` per (post, clientKey) enforces the
 * per-reader cap; a row also answers later duplicates of its request. Rows only exist for
 * requests that added claps, so there are at most CLAP_CAP of them per (post, clientKey).
 */
export const claps = sqliteTable(
  'claps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id),
    clientKey: text('client_key').notNull(),
    /** The `Idempotency-Key` header, or '' when the client sent none. */
    idempotencyKey: text('idempotency_key').notNull().default(''),
    /** Claps asked for, and claps counted after the per-reader cap. */
    count: integer('count').notNull(),
    added: integer('added').notNull(),
    /** Milliseconds since the epoch, for the duplicate window of key-less requests. */
    acceptedAt: integer('accepted_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('claps_client').on(table.postId, table.clientKey, table.acceptedAt),
    uniqueIndex('claps_idempotency')
      .on(table.postId, table.clientKey, table.idempotencyKey)
      .where(sql`${table.idempotencyKey} <> ''`),
  ],
)
