import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import { MIGRATIONS_FOLDER, openDatabase, type Db } from '../../src/db/client.ts'

/**
 * `DATA_DIR/folio.db` as a release before the later migrations left it: only `0000_init` applied
 * (copied with a one-entry journal into `scratch`). The caller fills in rows and closes it; the
 * server started on it then runs every later migration as an upgrade.
 */
export function databaseAtFirstMigration(dataDir: string, scratch: string): Db {
  const folder = join(scratch, 'migrations-0000')
  mkdirSync(join(folder, 'meta'), { recursive: true })
  copyFileSync(join(MIGRATIONS_FOLDER, '0000_init.sql'), join(folder, '0000_init.sql'))
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'))
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }))
  const db = openDatabase(join(dataDir, 'folio.db'))
  migrate(db, { migrationsFolder: folder })
  return db
}
