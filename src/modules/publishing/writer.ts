import { existsSync, rmdirSync, unlinkSync } from 'node:fs'
import { mkdir, rename, stat, symlink, unlink, utimes, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** What writing one artifact did. */
export type WriteOutcome = 'written' | 'unchanged' | 'removed' | 'absent'

/**
 * Precompressed copies Caddy's `file_server { precompressed br gzip }` serves to clients that
 * accept them. Levels chosen by measurement on this project's artifacts (docs/publishing.md):
 * brotli 5 and gzip 6 cost tens of microseconds per KB and come within a few per cent of the
 * sizes of brotli 9 / gzip 9, which cost milliseconds on the publish path. Compressed on the
 * calling thread: node:zlib's asynchronous API costs more main-thread time than it saves.
 */
export const SIDECARS = [
  { ext: '.br', encode: (b: Uint8Array) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) },
  { ext: '.gz', encode: (b: Uint8Array) => gzipSync(b, { level: 6 }) },
] as const

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? ''

const removeIfPresent = (file: string): boolean => {
  try {
    unlinkSync(file)
    return true
  } catch (error) {
    if (code(error) === 'ENOENT') return false
    throw error
  }
}

const removeIfThere = (file: string): Promise<unknown> =>
  unlink(file).catch((error) => {
    if (code(error) !== 'ENOENT') throw error
  })

/** A post that moved or left leaves its folder (`posts/{slug}/`) behind; drop it once empty. */
function removeFolderIfEmpty(root: string, folder: string): void {
  if (folder === root || !folder.startsWith(root)) return
  try {
    rmdirSync(folder)
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(code(error))) throw error
  }
}

/**
 * Makes an artifact's folder. A file standing where the folder goes is an artifact of the old
 * layout (`sitemap.xml` before it became `sitemap.xml/@`): it goes, as a rebuild would remove it.
 */
async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true })
  } catch (error) {
    if (!['EEXIST', 'ENOTDIR'].includes(code(error))) throw error
    await unlink(folder)
    await mkdir(folder, { recursive: true })
  }
}

let sequence = 0
const TEMP_SUFFIX = '.tmp'

/**
 * Replaces `file` atomically: a temp file in the same folder, then rename; readers see old or
 * new, never torn. `seconds` sets its mtime first; null leaves the time it was written at.
 */
async function replaceFile(file: string, bytes: Uint8Array, seconds: number | null): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${++sequence}${TEMP_SUFFIX}`)
  try {
    await writeFile(temp, bytes)
    if (seconds !== null) await utimes(temp, seconds, seconds)
    await rename(temp, file)
  } catch (error) {
    await removeIfThere(temp)
    throw error
  }
}

/** An alias spelling of the read: a relative symlink to the main file (and one per copy), made with it and left alone. */
const link = (target: string, alias: string): Promise<unknown> =>
  symlink(basename(target), alias).catch((error) => {
    if (code(error) !== 'EEXIST') throw error
  })

/**
 * Brings one artifact to `bytes`: main file, precompressed copies, alias links. Caddy's ETag is
 * the file's mtime in whole seconds plus its size, so a new version always gets an mtime second
 * past the old one: set explicitly when the old file is less than two seconds old (the kernel's
 * file clock may lag the process clock by a tick), else the time of writing already is.
 * Order matters for readers: the old copies go first, then the main file is renamed in, then the
 * new copies; so a reader gets the old file, or the new one uncompressed, or the new one
 * compressed, and never a compressed copy that disagrees with the main file. Under a full disk
 * the copies are simply missing, which Caddy answers with the main file. The syscalls are
 * asynchronous: many artifacts are written at once, each in this order.
 */
export async function writeArtifact(root: string, path: string, aliases: readonly string[], bytes: Uint8Array, nowMs: number): Promise<void> {
  const file = join(root, path)
  const previous = await stat(file).then(
    (s) => Math.floor(s.mtimeMs / 1000),
    () => null,
  )
  const nowSeconds = Math.floor(nowMs / 1000)
  const seconds = previous === null || previous < nowSeconds - 1 ? null : Math.max(nowSeconds, previous + 1)
  // A file that existed has its folder and its alias links already: no syscalls spent on them.
  if (previous === null) await makeFolder(dirname(file))
  const encoded = SIDECARS.map((s) => ({ file: file + s.ext, bytes: s.encode(bytes) }))
  if (previous !== null) await Promise.all(encoded.map((copy) => removeIfThere(copy.file)))
  await replaceFile(file, bytes, seconds)
  await Promise.all(encoded.map((copy) => replaceFile(copy.file, copy.bytes, seconds)))
  if (previous === null)
    await Promise.all(aliases.flatMap((alias) => [link(file, join(root, alias)), ...SIDECARS.map((s) => link(file + s.ext, join(root, alias) + s.ext))]))
}

/** Removes an artifact: main file first (Caddy then passes the read to the API), then copies and aliases. */
export function removeArtifact(root: string, path: string, aliases: readonly string[]): WriteOutcome {
  const file = join(root, path)
  const removed = removeIfPresent(file)
  for (const name of [path, ...aliases]) {
    if (name !== path) removeIfPresent(join(root, name))
    for (const s of SIDECARS) removeIfPresent(join(root, name) + s.ext)
  }
  removeFolderIfEmpty(root, dirname(file))
  return removed ? 'removed' : 'absent'
}

/** Whether the main file and both copies are on disk (the manifest's claim is only trusted then). */
export const artifactPresent = (root: string, path: string): boolean =>
  existsSync(join(root, path)) && SIDECARS.every((s) => existsSync(join(root, path) + s.ext))

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
