import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrateDatabase, openDatabase, type Db } from '../../src/db/client.ts'

/**
 * A real SQLite file, migrated to the latest schema, as `DATA_DIR/folio.db` in a fresh temp folder
 * (`dir`, free for the test's other files: a cache, imports). `dispose` closes the database and
 * removes the folder; the caller registers it (`afterAll(temp.dispose)`, or inside its own
 * `afterAll` after whatever still uses the database has stopped).
 */
export function migratedTempDb(prefix: string): { db: Db; dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const db = openDatabase(join(dir, 'folio.db'))
  migrateDatabase(db)
  return {
    db,
    dir,
    dispose() {
      db.$client.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
