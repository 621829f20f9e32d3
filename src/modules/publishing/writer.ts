import { mkdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib'

/** What writing one artifact did. */
export type WriteOutcome = 'written' | 'unchanged' | 'removed' | 'absent'

/**
 * Precompressed copies Caddy's `file_server { precompressed br gzip }` serves to clients that
 * accept them. Brotli quality 9 is within a few bytes of 11 at a small fraction of its cost.
 */
const SIDECARS = [
  {
    ext: '.br',
    encode: (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    decode: brotliDecompressSync,
  },
  { ext: '.gz', encode: (b: Buffer) => gzipSync(b, { level: 9 }), decode: gunzipSync },
] as const

const readOrNull = (file: string): Buffer | null => {
  try {
    return readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

const removeIfPresent = (file: string): boolean => {
  try {
    unlinkSync(file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}

/**
 * A post that moved or left leaves its folder (`posts/{slug}/`) behind; drop it once empty.
 * Renders hold SQLite's write lock, so no other renderer is filling the folder meanwhile.
 */
function removeFolderIfEmpty(root: string, folder: string): void {
  if (folder === root || !folder.startsWith(root)) return
  try {
    rmdirSync(folder)
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
  }
}

const holds = (copy: Buffer | null, decode: (b: Buffer) => Buffer, bytes: Buffer): boolean => {
  try {
    return !!copy && decode(copy).equals(bytes)
  } catch {
    return false
  }
}

let sequence = 0

/**
 * Replaces `file` atomically: a temp file in the same folder, then rename, so a reader sees the
 * old bytes or the new ones, never a torn file. Caddy's ETag is the file's mtime in whole
 * seconds plus its size, so a new version always gets an mtime at least one second past the old
 * one: two versions of equal size written within a second would otherwise share an ETag.
 */
function replaceFile(file: string, bytes: Buffer, nowMs: number): void {
  const previous = (() => {
    try {
      return Math.floor(statSync(file).mtimeMs / 1000)
    } catch {
      return null
    }
  })()
  const seconds = Math.max(Math.floor(nowMs / 1000), previous === null ? 0 : previous + 1)
  mkdirSync(dirname(file), { recursive: true })
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++sequence}${TEMP_SUFFIX}`)
  try {
    writeFileSync(temp, bytes)
    utimesSync(temp, seconds, seconds)
    renameSync(temp, file)
  } catch (error) {
    removeIfPresent(temp)
    throw error
  }
}

/**
 * Brings one artifact (and its precompressed copies) to `content`, or removes it when `content`
 * is null. Bytes equal to what is on disk are left untouched, so the file keeps its mtime and
 * therefore its ETag. Copies are written before the main file and removed after it, because
 * Caddy serves an artifact only while its main file exists.
 */
export function writeArtifact(root: string, path: string, content: string | null, nowMs: number): WriteOutcome {
  const file = join(root, path)
  if (content === null) {
    const removed = removeIfPresent(file)
    for (const s of SIDECARS) removeIfPresent(file + s.ext)
    if (removed) removeFolderIfEmpty(root, dirname(file))
    return removed ? 'removed' : 'absent'
  }
  const bytes = Buffer.from(content)
  const current = readOrNull(file)
  const changed = !current || !current.equals(bytes)
  for (const s of SIDECARS) {
    // A crash between copies and main file can leave a copy ahead of its main file: check it too.
    if (changed || !holds(readOrNull(file + s.ext), s.decode, bytes)) replaceFile(file + s.ext, s.encode(bytes), nowMs)
  }
  if (!changed) return 'unchanged'
  replaceFile(file, bytes, nowMs)
  return 'written'
}

const TEMP_SUFFIX = '.tmp'

/**
 * A temp file no live writer will ever rename: its writer process (named in the file) is gone,
 * or it is older than a minute. Only such files may be removed while other processes write.
 */
export function isOrphanTemp(name: string, mtimeMs: number, now: number): boolean {
  if (!name.endsWith(TEMP_SUFFIX)) return false
  const pid = Number(/\.(\d+)\.\d+\.tmp$/.exec(name)?.[1])
  return !pid || !processAlive(pid) || now - mtimeMs > 60_000
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
