import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * `Idempotency-Key`s of POST writes (docs/agents.md): one row per (caller, key), claimed before
 * the request runs and holding its answer once it has. `owner` names the process that claimed a
 * running row, so a row left running by a crashed process can be taken over after a restart.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    /** `token:<id>` or `ip:<address>`. */
    caller: text('caller').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and raw body. */
    fingerprint: text('fingerprint').notNull(),
    owner: text('owner').notNull(),
    /** Null while the first request runs. */
    status: integer('status'),
    headers: text('headers', { mode: 'json' }).$type<[string, string][]>(),
    body: text('body'),
    /** Milliseconds since the epoch; rows older than 24 hours are swept. */
    createdAt: integer('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.caller, table.key] }), index('idempotency_keys_created').on(table.createdAt)],
)
