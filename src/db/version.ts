import type { Database } from 'bun:sqlite'
import journal from '../../drizzle/meta/_journal.json'

/**
 * Whether the database already holds every migration this Folio ships: its newest applied
 * migration is the journal's newest (drizzle records each by its `when`). A read of one row, so a
 * command that only reads or writes rows can skip loading the migrator; anything else (an empty
 * file, a pending migration, a database from a newer Folio) goes through migrateDatabase.
 */
export function schemaIsCurrent(sqlite: Database): boolean {
  const newest = journal.entries.at(-1)?.when
  try {
    const row = sqlite
      .query<{ created_at: number }, []>('SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1')
      .get()
    return row !== null && Number(row.created_at) === newest
  } catch {
    return false // no migrations table yet: a new database
  }
}
