import { existsSync, lstatSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { walkCache } from './listing.ts'
import { ARTIFACT_MARK } from './files.ts'
import { isOrphanTemp, SIDECARS } from './writer.ts'

/** `filesOnDisk`'s bits: the main file, then one per copy (`SIDECARS` order); all of them set: `COMPLETE`. */
export const MAIN_FILE = 1
export const COMPLETE = (MAIN_FILE << (SIDECARS.length + 1)) - 1

/** Removes a temp file no live writer will rename (gone already: nothing to do). */
function removeOrphanTemp(file: string, name: string, now: number): void {
  try {
    if (isOrphanTemp(name, lstatSync(file).mtimeMs, now)) unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/**
 * What the cache holds under the kinds' top folders, one walk: `note` is told every artifact name
 * (a path without its copy extension; junk and older versions' alias links included) with the
 * bit of the file seen (`MAIN_FILE`, or one per copy: a name's bits OR'ed together are `COMPLETE`
 * when all are there), once per file. Orphaned temp files go. A walk of our own (`walkCache`):
 * Node's recursive `readdir` also tries to open every symlink as a folder, which costs a failed
 * system call per link. Never called inside a write transaction.
 */
export function scanDisk(cacheDir: string, tops: readonly string[], now: number, note: (name: string, bit: number) => void): void {
  const seen = (path: string) => {
    let copy = SIDECARS.length - 1
    while (copy >= 0 && !path.endsWith(SIDECARS[copy]!.ext)) copy--
    note(copy < 0 ? path : path.slice(0, -SIDECARS[copy]!.ext.length), copy < 0 ? MAIN_FILE : MAIN_FILE << (copy + 1))
  }
  // The site's root page is the file `@` itself, with its copies beside it.
  const rootFiles = new Set([ARTIFACT_MARK, ...SIDECARS.map((s) => ARTIFACT_MARK + s.ext)])
  if (tops.includes(ARTIFACT_MARK) && existsSync(cacheDir)) for (const entry of readdirSync(cacheDir)) if (rootFiles.has(entry)) seen(entry)
  // Folders unchanged since their recorded listing are not listed again (listing.ts).
  walkCache(
    cacheDir,
    tops.filter((top) => top !== ARTIFACT_MARK),
    (path, folder, name) =>
      // A temp file: another process may be writing it right now, unless its writer is gone.
      name.startsWith('.') ? removeOrphanTemp(`${folder}/${name}`, name, now) : seen(path),
  )
}

/** Removes the empty folders under `folder` (and it, unless it is CACHE_DIR itself). */
export function pruneEmptyFolders(cacheDir: string, folder: string): void {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isDirectory()) pruneEmptyFolders(cacheDir, join(folder, entry.name))
  if (folder !== cacheDir && readdirSync(folder).length === 0) rmdirSync(folder)
}
