import { readdirSync, statSync } from 'node:fs'
import { readCacheNote, writeCacheNote } from './writer.ts'

/**
 * The rebuild's walk of CACHE_DIR without listing every folder (docs/publishing.md, "Rebuilds"):
 * a folder's mtime moves whenever an entry is added to it, removed from it or renamed in it, so
 * a folder whose mtime is the one recorded with its listing still holds exactly those entries,
 * and one `stat` replaces `open` + `getdents` + `close`. The listings are kept in
 * `CACHE_DIR/.folio-listing`, next to what they describe (a cache deleted or replaced takes them
 * along). Only listings that cannot hide a change are kept: of folders whose last change is
 * older than `SETTLED_MS` (the kernel stamps mtimes with a coarse clock, so a change in the
 * same tick as the one recorded would leave the mtime as it was), and holding no temp file (an
 * orphan must be seen again by a later walk).
 */

const LISTING = '.folio-listing'
const FORMAT = 1
const SETTLED_MS = 2_000

/** One folder's entries as last listed, under its mtime then. */
interface Listed {
  mtime: number
  files: string[]
  folders: string[]
}

function readListings(cacheDir: string): Map<string, Listed> {
  try {
    const saved = JSON.parse(readCacheNote(cacheDir, LISTING) ?? 'null') as {
      format: number
      folders: [string, number, string[], string[]][]
    } | null
    if (saved?.format !== FORMAT) return new Map()
    return new Map(saved.folders.map(([path, mtime, files, folders]) => [path, { mtime, files, folders }]))
  } catch {
    // Unreadable: every folder is listed again, and the file is written anew.
    return new Map()
  }
}

/**
 * Calls `visit` for every file (or link) under the `tops` folders of `cacheDir`, with its
 * CACHE_DIR-relative path, its folder and its name. A top that is absent or not a folder is
 * skipped. Listings learned on the way are saved for the next walk, only when they changed.
 */
export function walkCache(cacheDir: string, tops: readonly string[], visit: (path: string, folder: string, name: string) => void): void {
  // The kernel's clock, which stamps the mtimes (not the process's, which tests may move).
  const settled = Date.now() - SETTLED_MS
  const known = readListings(cacheDir)
  const kept = new Map<string, Listed>()
  const walk = (path: string): void => {
    const folder = `${cacheDir}/${path}`
    let mtime: number
    try {
      // The mtime first, then the listing: a change in between makes the listing newer than its
      // mtime, which only costs another listing next time.
      const stat = statSync(folder)
      if (!stat.isDirectory()) return
      mtime = stat.mtimeMs
    } catch (error) {
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return
      throw error
    }
    let listed = known.get(path)
    if (listed?.mtime !== mtime) {
      listed = { mtime, files: [], folders: [] }
      for (const entry of readdirSync(folder, { withFileTypes: true }))
        (entry.isDirectory() ? listed.folders : listed.files).push(entry.name)
    }
    for (const name of listed.files) visit(`${path}/${name}`, folder, name)
    if (mtime < settled && !listed.files.some((name) => name.startsWith('.'))) kept.set(path, listed)
    for (const name of listed.folders) walk(`${path}/${name}`)
  }
  for (const top of tops) walk(top)
  // Written only when it learned something, so a walk of a cache that did not change writes nothing.
  if (kept.size === known.size && [...kept].every(([path, listed]) => known.get(path) === listed)) return
  try {
    writeCacheNote(
      cacheDir,
      LISTING,
      JSON.stringify({ format: FORMAT, folders: [...kept].map(([path, l]) => [path, l.mtime, l.files, l.folders]) }),
    )
  } catch {
    // A full or read-only CACHE_DIR: the next walk lists those folders again, nothing worse.
  }
}
