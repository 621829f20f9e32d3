import { existsSync, lstatSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { COPY_EXTENSIONS, mayHaveCopy } from './copies-rule.ts'
import { walkCache } from './listing.ts'
import { ARTIFACT_MARK } from './files.ts'
import { isOrphanTemp } from './writer.ts'

/** `scanDisk`'s bits: the main file, then one per copy (`COPY_EXTENSIONS` order). */
export const MAIN_FILE = 1
const copyBit = (index: number) => MAIN_FILE << (index + 1)

/** The bits of the main file at `path` with every copy it gets at a size that takes copies (copies-rule.ts). */
export const completeBits = (path: string): number =>
  COPY_EXTENSIONS.reduce((bits, ext, i) => (mayHaveCopy(path, ext) ? bits | copyBit(i) : bits), MAIN_FILE)

/**
 * The names under which the scan notes copies the rule never gives the main file at `path` (a
 * `.br` beside the API's JSON, left by a release that wrote one): each is junk of its own, which
 * the rebuild renders to nothing and removes, counted as removed like any stray.
 */
export const junkCopyNames = (path: string): string[] => COPY_EXTENSIONS.filter((ext) => !mayHaveCopy(path, ext)).map((ext) => path + ext)

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
 * bit of the file seen (`MAIN_FILE`, or one per copy: a name's bits OR'ed together are
 * `completeBits` when all it gets are there), once per file. A copy the rule never gives its
 * main file is noted under its own name, as a main file (`junkCopyNames`). Orphaned temp files
 * go. A walk of our own (`walkCache`): Node's recursive `readdir` also tries to open every symlink
 * as a folder, which costs a failed system call per link. Never called inside a write transaction.
 */
export function scanDisk(cacheDir: string, tops: readonly string[], now: number, note: (name: string, bit: number) => void): void {
  const seen = (path: string) => {
    let copy = COPY_EXTENSIONS.length - 1
    while (copy >= 0 && !path.endsWith(COPY_EXTENSIONS[copy]!)) copy--
    const main = copy < 0 ? path : path.slice(0, -COPY_EXTENSIONS[copy]!.length)
    if (copy < 0 || !mayHaveCopy(main, COPY_EXTENSIONS[copy]!)) note(path, MAIN_FILE)
    else note(main, copyBit(copy))
  }
  // The site's root page is the file `@` itself, with its copies beside it.
  const rootFiles = new Set([ARTIFACT_MARK, ...COPY_EXTENSIONS.map((ext) => ARTIFACT_MARK + ext)])
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
