import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './columns.ts'

/**
 * The people who sign in to the console (docs/admin.md). `role` maps onto token scopes
 * (modules/people/roles.ts); the password is kept as an argon2id hash only. A disabled account
 * keeps its rows (the audit log names it) but signs in no more.
 */
export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  role: text('role').notNull(),
  passwordHash: text('password_hash').notNull(),
  disabledAt: text('disabled_at'),
  createdAt: createdAt(),
})

/** Console sign-ins: only the SHA-256 of the cookie's secret is kept. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    secretHash: text('secret_hash').notNull().unique(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: text('last_seen_at').notNull(),
  },
  (table) => [index('sessions_user').on(table.userId)],
)

/** WebAuthn credentials (passkeys), one row per authenticator an account registered. */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports').notNull().default(''),
    name: text('name').notNull().default(''),
    createdAt: createdAt(),
    lastUsedAt: text('last_used_at'),
  },
  (table) => [index('passkeys_user').on(table.userId)],
)

/** Every console action and sign-in event: who, what, when, from where (docs/admin.md, "Audit log"). */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id'),
    action: text('action').notNull(),
    target: text('target').notNull().default(''),
    status: integer('status').notNull().default(200),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('audit_log_created_at').on(table.createdAt), index('audit_log_user').on(table.userId)],
)

/** The first-run setup code: one row while no account exists, deleted when the owner is made. */
export const adminSetup = sqliteTable('admin_setup', {
  id: integer('id').primaryKey(),
  code: text('code').notNull(),
  createdAt: createdAt(),
})
