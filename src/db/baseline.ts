import { Database } from 'bun:sqlite'
import type { MigrationMeta } from 'drizzle-orm/migrator'
import { StartupError } from '../shared/errors.ts'

/**
 * Before migrations were frozen, `drizzle/0000_init.sql` was regenerated as features landed, so a
 * database created by an earlier main records an earlier 0000 (another hash, an older timestamp)
 * and drizzle would run today's 0000 over it again (`table ... already exists`).
 *
 * `baselineEarlier0000` brings such a database to today's 0000 schema in one transaction and then
 * records today's 0000 as applied, so the later migrations run as usual. It compares the database
 * with a fresh in-memory copy of today's 0000: missing tables and indexes are created, changed
 * indexes replaced, and a table whose definition changed is rebuilt the way SQLite documents
 * (create the new shape, copy the common columns, drop, rename), keeping every row, id and
 * AUTOINCREMENT counter. Anything it cannot carry over (a table no Folio schema has, a new
 * required column without a default, a broken foreign key) stops it with one line and rolls back.
 */

export class MigrationError extends StartupError {}

export type MigrationState = 'fresh-or-current' | 'baselined'

interface SchemaObject {
  type: string
  name: string
  tbl_name: string
  sql: string
}

const MIGRATIONS_TABLE = '__drizzle_migrations'
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * Checks the recorded migration history against the journal and baselines an earlier 0000.
 * Refuses a database migrated by a newer Folio (its last migration is younger than ours).
 */
export function baselineEarlier0000(sqlite: Database, migrations: MigrationMeta[]): MigrationState {
  const init = migrations[0]
  if (!init) return 'fresh-or-current'
  const hasTable = sqlite.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(MIGRATIONS_TABLE)
  if (!hasTable) return 'fresh-or-current'
  const applied = sqlite.query(`SELECT hash, created_at AS createdAt FROM ${MIGRATIONS_TABLE}`).all() as {
    hash: string
    createdAt: number | string
  }[]
  if (applied.length === 0) return 'fresh-or-current'
  const newest = Math.max(...migrations.map((m) => m.folderMillis))
  if (applied.some((row) => Number(row.createdAt) > newest))
    throw new MigrationError('the database was migrated by a newer Folio than this one; run that version (or restore a backup)')
  if (applied.some((row) => row.hash === init.hash)) return 'fresh-or-current'
  if (applied.length !== 1)
    throw new MigrationError(`unrecognised migration history (${applied.length} entries, none is today's 0000_init); restore a backup`)

  const reference = new Database(':memory:')
  try {
    for (const statement of init.sql) reference.exec(statement)
    adopt(sqlite, reference, init)
  } finally {
    reference.close()
  }
  return 'baselined'
}

const schemaOf = (db: Database): SchemaObject[] =>
  db
    .query(
      `SELECT type, name, tbl_name, sql FROM sqlite_master
       WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name <> ? ORDER BY type, name`,
    )
    .all(MIGRATIONS_TABLE) as SchemaObject[]

function adopt(sqlite: Database, reference: Database, init: MigrationMeta): void {
  const want = schemaOf(reference)
  const wanted = new Map(want.map((o) => [`${o.type}:${o.name}`, o]))
  // Foreign keys must be off while a referenced table is rebuilt; the check below runs before commit.
  sqlite.exec('PRAGMA foreign_keys = OFF')
  try {
    sqlite
      .transaction(() => {
        for (const o of schemaOf(sqlite)) {
          if (o.type === 'index') {
            if (wanted.get(`index:${o.name}`)?.sql !== o.sql) sqlite.exec(`DROP INDEX ${quote(o.name)}`)
          } else if (!wanted.has(`${o.type}:${o.name}`)) {
            throw new MigrationError(`the database has a ${o.type} "${o.name}" that no Folio schema has; restore a backup`)
          }
        }
        const have = new Map(schemaOf(sqlite).map((o) => [`${o.type}:${o.name}`, o]))
        for (const table of want.filter((o) => o.type === 'table')) {
          const current = have.get(`table:${table.name}`)
          if (!current) sqlite.exec(table.sql)
          else if (current.sql !== table.sql) rebuild(sqlite, reference, table)
        }
        const indexes = new Set(schemaOf(sqlite).map((o) => `${o.type}:${o.name}`))
        for (const index of want.filter((o) => o.type === 'index')) if (!indexes.has(`index:${index.name}`)) sqlite.exec(index.sql)

        const broken = sqlite.query('PRAGMA foreign_key_check').all() as { table: string }[]
        if (broken.length) throw new MigrationError(`${broken.length} rows of "${broken[0]!.table}" point at rows that do not exist`)
        const result = JSON.stringify(schemaOf(sqlite))
        if (result !== JSON.stringify(want)) throw new MigrationError('the schema could not be brought to 0000_init; restore a backup')
        sqlite.exec(`DELETE FROM ${MIGRATIONS_TABLE}`)
        sqlite.query(`INSERT INTO ${MIGRATIONS_TABLE} (hash, created_at) VALUES (?, ?)`).run(init.hash, init.folderMillis)
      })
      .immediate()
  } finally {
    sqlite.exec('PRAGMA foreign_keys = ON')
  }
}

/**
 * SQLite's documented way to change a table's definition, with the old table moved aside first so
 * the new one is created from today's exact statement: rename, create, copy, drop. With
 * legacy_alter_table the rename leaves other tables' foreign keys naming the table as they are.
 */
function rebuild(sqlite: Database, reference: Database, table: SchemaObject): void {
  const columns = (db: Database, name: string) =>
    (db.query(`PRAGMA table_xinfo(${quote(name)})`).all() as { name: string; hidden: number }[])
      // hidden 0 is an ordinary column; generated columns (2, 3) are computed, never copied.
      .filter((c) => c.hidden === 0)
      .map((c) => c.name)
  const aside = `__baseline_${table.name}`
  const sequence = sqlite.query('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table.name) as { seq: number } | null
  sqlite.exec('PRAGMA legacy_alter_table = ON')
  try {
    sqlite.exec(`ALTER TABLE ${quote(table.name)} RENAME TO ${quote(aside)}`)
  } finally {
    sqlite.exec('PRAGMA legacy_alter_table = OFF')
  }
  sqlite.exec(table.sql)
  const kept = new Set(columns(sqlite, aside))
  const common = columns(reference, table.name)
    .filter((name) => kept.has(name))
    .map(quote)
    .join(', ')
  try {
    sqlite.exec(`INSERT INTO ${quote(table.name)} (${common}) SELECT ${common} FROM ${quote(aside)}`)
  } catch (error) {
    throw new MigrationError(`cannot carry the rows of "${table.name}" into its new shape: ${(error as Error).message}`)
  }
  sqlite.exec(`DROP TABLE ${quote(aside)}`)
  // The copy set the counter to the largest id; ids of deleted rows stay used, as before.
  if (sequence) {
    sqlite.query('DELETE FROM sqlite_sequence WHERE name = ?').run(table.name)
    sqlite.query('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table.name, sequence.seq)
  }
}
