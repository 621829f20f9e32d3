import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { baselineEarlier0000, type MigrationState } from './baseline.ts'
import * as schema from './schema/index.ts'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }
/** The handle verbs receive inside `db.transaction(...)`; it has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type Queryable = Db | Tx

export const MIGRATIONS_FOLDER = join(import.meta.dir, '..', '..', 'drizzle')

/**
 * Opens the SQLite file with the pragmas a small busy service needs: WAL so readers never block
 * the writer, a busy timeout instead of SQLITE_BUSY errors, enforced foreign keys.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const sqlite = new Database(file, { create: true, strict: true })
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA synchronous = NORMAL')
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
