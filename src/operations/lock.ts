import { Database } from 'bun:sqlite'
import { accessSync, constants, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { StartupError } from '../shared/errors.ts'

/** One instance per data folder: the lock file `npm start` holds for its whole life. */
export const LOCK_FILE = 'folio.lock'

/** Another running server holds the lock. */
export class DataDirInUse extends StartupError {}

export interface DataDirLock {
  release(): void
}

/** Creates the folder if needed and checks this process may write there; one line when not. */
export function usableDir(variable: string, dir: string): void {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.R_OK | constants.W_OK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new StartupError(`${variable} ${dir} is not usable (${code}): it must be a folder this user can write`)
  }
}

/**
 * Takes the data folder's lock: an exclusive SQLite lock on DATA_DIR/folio.lock, held by the
 * operating system for as long as this process lives and dropped when it ends, even by kill -9,
 * so a crash never leaves a stale lock behind. A second server on the same folder is refused.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  usableDir('DATA_DIR', dataDir)
  const file = join(dataDir, LOCK_FILE)
  let lock: Database
  try {
    lock = new Database(file, { create: true })
  } catch (error) {
    throw new StartupError(`DATA_DIR ${dataDir}: cannot open ${LOCK_FILE} (${(error as Error).message})`)
  }
  try {
    lock.exec('PRAGMA busy_timeout = 0')
    lock.exec('PRAGMA locking_mode = EXCLUSIVE')
    lock.exec('BEGIN EXCLUSIVE')
  } catch {
    lock.close()
    throw new DataDirInUse(`DATA_DIR ${dataDir} is in use by another running Folio (it holds ${file}); stop that one first`)
  }
  return { release: () => lock.close() }
}
