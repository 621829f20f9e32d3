import {
  closeSync,
  existsSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { mayHaveCopy, type CopyExtension } from './copies-rule.ts'

/** What writing one artifact did; 'copied': its bytes stood, and only their compressed copies were written. */
export type WriteOutcome = 'written' | 'copied' | 'unchanged' | 'removed' | 'absent'

/**
 * Precompressed copies Caddy's `file_server { precompressed br gzip }` serves to clients that
 * accept them, one per extension of copies-rule.ts (which says which an artifact gets). Levels
 * chosen by measurement on this project's artifacts (docs/publishing.md, "Compression"): brotli 5
 * and gzip 6 cost tens of microseconds per KB and come within a few per cent of the sizes of
 * brotli 9 / gzip 9, which cost milliseconds on the publish path.
 * gzip goes through `Bun.gzipSync`: the same zlib and the same bytes as `node:zlib`'s
 * `gzipSync`, with about a third less time spent around it.
 */
export const SIDECARS: readonly { ext: CopyExtension; encode: (b: Uint8Array) => Uint8Array }[] = [
  { ext: '.br', encode: (b: Uint8Array) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) },
  // Artifacts' bytes never live in shared memory.
  { ext: '.gz', encode: (b: Uint8Array) => Bun.gzipSync(b as Uint8Array<ArrayBuffer>, { level: 6 }) },
]

/**
 * Removes a file; false when there is none by that name. A folder there is no file either: where
 * an old layout's file (`sitemap.xml`) stood, the new layout's folder of that name may stand now.
 */
const removeIfPresent = (file: string): boolean => {
  try {
    unlinkSync(file)
    return true
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return false
    throw error
  }
}

/** A post that moved or left leaves its folder (`posts/{slug}/`) behind; drop it once empty. */
function removeFolderIfEmpty(root: string, folder: string): void {
  if (folder === root || !folder.startsWith(root)) return
  try {
    rmdirSync(folder)
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
  }
}

/**
 * Makes an artifact's folder. A file standing where the folder goes is an artifact of the old
 * layout (`sitemap.xml` before it became `sitemap.xml/@`): it goes, as a rebuild would remove it.
 */
function makeFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true })
  } catch (error) {
    if (!['EEXIST', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
    unlinkSync(folder)
    mkdirSync(folder, { recursive: true })
  }
}

/** A file's mtime in whole seconds; null when there is none (no exception thrown for the usual absent file). */
function mtimeSeconds(file: string): number | null {
  try {
    const stat = statSync(file, { throwIfNoEntry: false })
    return stat ? Math.floor(stat.mtimeMs / 1000) : null
  } catch {
    // ENOTDIR: an old layout's file stands where a folder of this path goes.
    return null
  }
}

let sequence = 0
const TEMP_SUFFIX = '.tmp'

/**
 * Writes `bytes` to a new temp file beside `file`, with the given mtime (whole seconds) unless
 * null, and answers the mtime it has; the caller renames it. One open, write, (futimes,) fstat and
 * close: Bun's `writeFileSync` adds an `ftruncate` per file, and a path `utimes` looks the name up
 * again (docs/benchmarks.md, "Rebuild CPU").
 */
function stage(file: string, bytes: Uint8Array, seconds: number | null): { temp: string; seconds: number } {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++sequence}${TEMP_SUFFIX}`)
  try {
    const fd = openSync(temp, 'w')
    try {
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done)
      if (seconds !== null) futimesSync(fd, seconds, seconds)
      return { temp, seconds: seconds ?? Math.floor(fstatSync(fd).mtimeMs / 1000) }
    } finally {
      closeSync(fd)
    }
  } catch (error) {
    removeIfPresent(temp)
    throw error
  }
}

/** Replaces `file` atomically: a temp file in the same folder, then rename; readers see old or new, never torn. Its mtime, in seconds. */
function replaceFile(file: string, bytes: Uint8Array, seconds: number | null): number {
  const staged = stage(file, bytes, seconds)
  try {
    renameSync(staged.temp, file)
  } catch (error) {
    removeIfPresent(staged.temp)
    throw error
  }
  return staged.seconds
}

/**
 * Brings one artifact's main file to `bytes`; its precompressed copies are
 * `writeCopies`' work (on the copies thread, copies.ts). Caddy's ETag is the file's mtime in whole
 * seconds plus its size, so a new version always gets an mtime second past the old one (two
 * versions of equal size within a second would share an ETag): set explicitly when the old file is
 * less than two seconds old (the kernel's file clock may lag the process clock by a tick), else
 * the time of writing already is, and a new file keeps it. Order matters for readers: the old
 * copies go first (even where no main file was: copies left behind by a failed removal), then the
 * main file is renamed in, and the new copies come after it; so a reader gets the old file, or the
 * new one uncompressed, or the new one compressed, and never a compressed copy that disagrees with
 * the main file. Under a full disk the copies are simply missing, which Caddy answers with the
 * main file. A version too small for copies (copies-rule.ts) has none: the old copies of a larger
 * one still go first, and none come after. `vacant`: the caller knows nothing of this artifact is
 * on disk (no main file, no copies: a rebuild's scan, under the render lock, of a path not placed
 * since), so neither is looked for. Answers the main file's mtime in seconds, for its copies.
 */
export function writeArtifact(root: string, path: string, bytes: Uint8Array, nowMs: number, vacant = false): number {
  const file = join(root, path)
  const previous = vacant ? null : mtimeSeconds(file)
  const nowSeconds = Math.floor(nowMs / 1000)
  const seconds = previous === null || previous < nowSeconds - 1 ? null : Math.max(nowSeconds, previous + 1)
  // A file that existed has its folder already: no syscall spent on it.
  if (previous === null) makeFolder(dirname(file))
  if (!vacant) for (const s of SIDECARS) removeIfPresent(file + s.ext)
  return replaceFile(file, bytes, seconds)
}

/** Whether an artifact's main file holds exactly `bytes` (false when there is none). */
export function holds(root: string, path: string, bytes: Uint8Array): boolean {
  try {
    return readFileSync(join(root, path)).equals(bytes)
  } catch {
    return false
  }
}

/**
 * The compressed copies of an artifact whose main file holds `bytes` (written without them), those
 * its kind gets (copies-rule.ts `mayHaveCopy`: `.gz` alone for the API's JSON and the Markdown
 * twins; callers ask only for an artifact large enough, `copiesOf`), with the main file's mtime,
 * taken before its bytes are read; each renamed in whole, so a reader gets the main file
 * uncompressed or a copy that agrees with it. False, with nothing written, when the
 * main file holds other bytes: they would not be its copies. `seconds`: the main file's mtime, given
 * by the writer that has just put these very bytes there and places the path again only once its
 * copies are written (destinations.ts `ready`, under the render lock), so the file is neither
 * looked at nor read back.
 */
export function writeCopies(root: string, path: string, bytes: Uint8Array, seconds?: number): boolean {
  const file = join(root, path)
  if (seconds === undefined) {
    seconds = Math.floor(statSync(file).mtimeMs / 1000)
    if (!holds(root, path, bytes)) return false
  }
  for (const s of SIDECARS) if (mayHaveCopy(path, s.ext)) replaceFile(file + s.ext, s.encode(bytes), seconds)
  return true
}

/**
 * Whether an artifact's main file, and separately all the copies it gets (`copies`, copies-rule.ts
 * `copiesOf`), are on disk. A copy is a file: anything else at its name (a folder, where a rename
 * of the copy failed) leaves the copies missing, so their job stays until they can be written.
 */
export function filesPresent(root: string, path: string, copies: readonly CopyExtension[]): { main: boolean; copies: boolean } {
  const file = join(root, path)
  const main = existsSync(file)
  return { main, copies: main && copies.every((ext) => statSync(file + ext, { throwIfNoEntry: false })?.isFile() === true) }
}

/** A bookkeeping file of CACHE_DIR (`.folio-*`: the stamp, the cache marker, the render mark): its text, or null when absent. */
export function readCacheNote(cacheDir: string, name: string): string | null {
  try {
    return readFileSync(join(cacheDir, name), 'utf8')
  } catch {
    return null
  }
}

/** Replaces a bookkeeping file atomically (temp file + rename): a reader sees the old text or the new, never half. */
export function writeCacheNote(cacheDir: string, name: string, text: string): void {
  const temp = join(cacheDir, `${name}.${process.pid}.tmp`)
  try {
    writeFileSync(temp, text)
    renameSync(temp, join(cacheDir, name))
  } catch (error) {
    removeIfPresent(temp)
    throw error
  }
}

/** Removes an artifact: main file first (Caddy then passes the read to the API), then its copies. */
export function removeArtifact(root: string, path: string): WriteOutcome {
  const file = join(root, path)
  const removed = removeIfPresent(file)
  for (const s of SIDECARS) removeIfPresent(file + s.ext)
  removeFolderIfEmpty(root, dirname(file))
  return removed ? 'removed' : 'absent'
}

/**
 * A temp file no live writer will ever rename: its writer process (named in the file) is gone,
 * or it is older than a minute. Only such files may be removed while other processes write.
 */
export function isOrphanTemp(name: string, mtimeMs: number, now: number): boolean {
  if (!name.endsWith(TEMP_SUFFIX)) return false
  const pid = Number(/\.(\d+)\.\d+\.tmp$/.exec(name)?.[1])
  return !pid || !processAlive(pid) || now - mtimeMs > 60_000
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
