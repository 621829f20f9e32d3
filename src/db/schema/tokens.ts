import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './columns.ts'

/** API tokens: only the SHA-256 of the secret is kept; `prefix` is the public lookup handle. */
export const apiTokens = sqliteTable('api_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  prefix: text('prefix').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  scopes: text('scopes').notNull(),
  createdAt: createdAt(),
  lastUsedAt: text('last_used_at'),
  revokedAt: text('revoked_at'),
})

/** One row per call that carried a token (spec §5.9), pruned to a bounded window. */
export const apiCalls = sqliteTable(
  'api_calls',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenId: integer('token_id'),
    requiredScope: text('required_scope'),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: integer('status').notNull(),
    code: text('code'),
    message: text('message'),
    ip: text('ip').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('api_calls_created_at').on(table.createdAt), index('api_calls_token').on(table.tokenId)],
)
