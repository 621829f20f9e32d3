import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { contentEtag, fileEtag, type Validators } from '../../http/conditional.ts'
import { offsetMonotonic, type Monotonic } from '../../shared/time.ts'
import { lastRenderMark, renderLockHolder } from './lock.ts'

/**
 * One artifact as the API serves it: its answers made once, each handed out as a clone (which
 * shares the body's bytes and copies only the headers: a third of the cost of a new Response).
 */
export interface CachedArtifact {
  /** ETag and Last-Modified (whole seconds), for conditional requests. */
  validators: Validators
  /** The answers to a GET, to a HEAD (the GET's headers, no body) and to a current client's copy (304). */
  answers: { ok: Response; head: Response; notModified: Response }
  mtimeMs: number
  size: number
  /** The file's inode: a new version arrives by rename, so it always has a new one. */
  ino: number
  /** The generation of other processes' renders at which this entry was last checked against the disk. */
  checked: number
}

/** The headers of an artifact's answers, from its file and validators (serve.ts, `artifactHeaders(cacheControl)`). */
export type HeadersOf = (
  file: string,
  artifact: { etag: string; lastModified: string },
) => { ok: Record<string, string>; notModified: Record<string, string> }

/**
 * How stale an entry may be when another process (a `cli rebuild`) rewrites its file: the render
 * lock and its mark are looked at no more often than this.
 */
export const FOREIGN_RENDER_CHECK_MS = 100

function readFromDisk(file: string): { bytes: Uint8Array<ArrayBuffer>; mtimeMs: number; ino: number } | null {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return null
  }
  try {
    // One descriptor for stat and read: a rename in between cannot pair old validators with new bytes.
    const stat = fstatSync(fd)
    return stat.isFile() ? { bytes: readFileSync(fd), mtimeMs: stat.mtimeMs, ino: stat.ino } : null
  } finally {
    closeSync(fd)
  }
}

/**
 * Renders by other processes, seen cheaply. Every renderer works under CACHE_DIR's render lock
 * (lock.ts) and rewrites the lock's mark as it lets go. At most every `intervalMs`, one read of
 * each: while another process holds the lock, `generation()` is null (check every read against the
 * disk); once the mark has changed, the generation moves on (check every entry once more). So a
 * file another process writes is served at most `intervalMs` after its rename.
 */
function foreignRenders(cacheDir: string, intervalMs: number, clock: Monotonic) {
  let generation = 0
  let busy = false
  let mark = lastRenderMark(cacheDir)
  let nextCheck = 0
  return function current(): number | null {
    const now = clock()
    if (now >= nextCheck) {
      nextCheck = now + intervalMs
      const holder = renderLockHolder(cacheDir)
      busy = holder !== null && holder !== process.pid
      const seen = lastRenderMark(cacheDir)
      if (seen !== mark) {
        mark = seen
        generation++
      }
    }
    return busy ? null : generation
  }
}

/**
 * The artifacts the API has served, in memory, with Caddy's validators for the same file
 * (mtime seconds + size), so a client can revalidate against either. The renderer of this process
 * puts every new version in as it writes it (`changed`); a version written by another process is
 * noticed through `foreignRenders` within FOREIGN_RENDER_CHECK_MS, and then each entry is checked
 * with one `stat` (inode, mtime, size). Bounded by `budgetBytes`: the oldest entries go first.
 */
export function createArtifactCache(
  cacheDir: string,
  headersOf: HeadersOf,
  options: {
    budgetBytes?: number
    checkMs?: number
    recorded?: (path: string) => string | undefined
    /** The clock `foreignRenders` goes by: `performance.now()` by default, a test's moved one under clocked-main.ts. */
    now?: Monotonic
  } = {},
) {
  const budgetBytes = options.budgetBytes ?? 64 * 1024 * 1024
  const generation = foreignRenders(cacheDir, options.checkMs ?? FOREIGN_RENDER_CHECK_MS, options.now ?? offsetMonotonic())
  const entries = new Map<string, CachedArtifact>()
  let used = 0

  const entryOf = (path: string, bytes: Uint8Array<ArrayBuffer>, mtimeMs: number, ino: number, checked: number): CachedArtifact => {
    const lastModified = new Date(Math.floor(mtimeMs / 1000) * 1000)
    const etag = fileEtag(mtimeMs, bytes.length)
    const headers = headersOf(path, { etag, lastModified: lastModified.toUTCString() })
    return {
      validators: { etag, lastModified },
      answers: {
        ok: new Response(bytes, { headers: headers.ok }),
        // Bun answers a bodiless HEAD with Content-Length: 0 unless told the GET's length.
        head: new Response(null, { headers: { ...headers.ok, 'content-length': String(bytes.length) } }),
        notModified: new Response(null, { status: 304, headers: headers.notModified }),
      },
      mtimeMs,
      size: bytes.length,
      ino,
      checked,
    }
  }

  function drop(path: string): void {
    const old = entries.get(path)
    if (!old) return
    used -= old.size
    entries.delete(path)
  }

  function put(path: string, entry: CachedArtifact): void {
    drop(path)
    if (entry.size > budgetBytes / 4) return
    while (used + entry.size > budgetBytes) drop(entries.keys().next().value!)
    entries.set(path, entry)
    used += entry.size
  }

  function load(path: string, checked: number): CachedArtifact | null {
    const found = readFromDisk(join(cacheDir, path))
    if (!found) return null
    // Bytes the manifest has not recorded (a damaged file, one a killed pass renamed in) are never
    // served from here: the read goes on to the API's live answer (verify.ts repairs the file).
    if (options.recorded && options.recorded(path) !== contentEtag(found.bytes)) return null
    const entry = entryOf(path, found.bytes, found.mtimeMs, found.ino, checked)
    put(path, entry)
    return entry
  }

  return {
    /** The artifact at this CACHE_DIR-relative file, or null when there is none. */
    get(path: string): CachedArtifact | null {
      const now = generation()
      // -1 never equals a generation: an entry read while another process renders is checked again.
      const checked = now ?? -1
      const entry = entries.get(path)
      if (!entry) return load(path, checked)
      if (entry.checked === now) return entry
      const stat = statSync(join(cacheDir, path), { throwIfNoEntry: false })
      if (stat && stat.ino === entry.ino && stat.mtimeMs === entry.mtimeMs && stat.size === entry.size) {
        entry.checked = checked
        return entry
      }
      drop(path)
      return stat ? load(path, checked) : null
    },
    /** The bytes held now: never more than the budget (docs/memory.md). */
    held: () => used,
    /** The renderer replaced or removed these files: their entries go now, the next read takes the disk's. */
    changed(paths: readonly string[]): void {
      for (const path of paths) drop(path)
    },
  }
}

export type ArtifactCache = ReturnType<typeof createArtifactCache>
