import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { baselineEarlier0000, type MigrationState } from './baseline.ts'
import type { DbReplication } from '../config.ts'
import * as schema from './schema/index.ts'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }
/** The handle verbs receive inside `db.transaction(...)`; it has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type Queryable = Db | Tx

export const MIGRATIONS_FOLDER = join(import.meta.dir, '..', '..', 'drizzle')

/**
 * WAL frames after which a commit checkpoints by itself while Litestream replicates. Litestream
 * checkpoints at 1,000 pages and every minute, after it has copied the frames; this higher mark is
 * reached only when Litestream is down or stalled, so the WAL stays bounded (~40 MB of 4 KiB pages)
 * without Folio racing the replicator for checkpoints (docs/beyond-one-box.md).
 */
export const LITESTREAM_WAL_AUTOCHECKPOINT = 10_000

/**
 * Opens the SQLite file with the pragmas a small busy service needs: WAL so readers never block
 * the writer (and so Litestream can replicate), a busy timeout instead of SQLITE_BUSY errors
 * (Litestream's checkpoints take the write lock briefly), enforced foreign keys. With Litestream
 * replicating, checkpoints are left to it.
 */
export function openDatabase(file: string, options: { replication?: DbReplication } = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const sqlite = new Database(file, { create: true, strict: true })
  // The busy timeout first: setting the journal mode reads the file, and a connection closing in
  // another process (its checkpoint takes the file's lock for a moment) must be waited out, not fail.
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA synchronous = NORMAL')
  if (options.replication === 'litestream') sqlite.exec(`PRAGMA wal_autocheckpoint = ${LITESTREAM_WAL_AUTOCHECKPOINT}`)
  return drizzle(sqlite, { schema }) as Db
}

/**
 * Applies the migrations not yet applied. Migrations are forward-only: once on main, a file is
 * never edited. A database made by an earlier, since-regenerated 0000 is baselined first
 * (baseline.ts); one migrated by a newer Folio is refused.
 */
export function migrateDatabase(db: Db, migrationsFolder = MIGRATIONS_FOLDER): MigrationState {
  const state = baselineEarlier0000(db.$client, readMigrationFiles({ migrationsFolder }))
  migrate(db, { migrationsFolder })
  return state
}
