import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileEtag } from '../../http/conditional.ts'
import { contentTypeOf } from './paths.ts'

/** One artifact as the API serves it: bytes and every header precomputed. */
export interface CachedArtifact {
  bytes: Uint8Array<ArrayBuffer>
  etag: string
  lastModified: string
  /** Whole seconds, for If-Modified-Since. */
  lastModifiedMs: number
  contentType: string
  mtimeMs: number
  size: number
  checkedAt: number
}

/** How long a cached artifact is trusted before one `stat` checks it against the disk (another process may write). */
const TRUST_MS = 1_000

function readFromDisk(file: string): { bytes: Uint8Array<ArrayBuffer>; mtimeMs: number } | null {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return null
  }
  try {
    // One descriptor for stat and read: a rename in between cannot pair old validators with new bytes.
    const stat = fstatSync(fd)
    return stat.isFile() ? { bytes: readFileSync(fd), mtimeMs: stat.mtimeMs } : null
  } finally {
    closeSync(fd)
  }
}

/**
 * The artifacts the API has served, in memory, with Caddy's validators for the same file
 * (mtime seconds + size), so a client can revalidate against either. The renderer of this
 * process puts every new version in as it writes it; a version written by another process (a
 * CLI rebuild) is noticed by a `stat` at most once a second. Bounded by `budgetBytes`: the
 * oldest entries go first.
 */
export function createArtifactCache(cacheDir: string, budgetBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, CachedArtifact>()
  let used = 0

  const entryOf = (path: string, bytes: Uint8Array<ArrayBuffer>, mtimeMs: number, now: number): CachedArtifact => {
    const seconds = Math.floor(mtimeMs / 1000) * 1000
    return {
      bytes,
      etag: fileEtag(mtimeMs, bytes.length),
      lastModified: new Date(seconds).toUTCString(),
      lastModifiedMs: seconds,
      contentType: contentTypeOf(path),
      mtimeMs,
      size: bytes.length,
      checkedAt: now,
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

  function load(path: string, now: number): CachedArtifact | null {
    const found = readFromDisk(join(cacheDir, path))
    if (!found) return null
    const entry = entryOf(path, found.bytes, found.mtimeMs, now)
    put(path, entry)
    return entry
  }

  return {
    /** The artifact at this CACHE_DIR-relative file, or null when there is none. */
    get(path: string, now = Date.now()): CachedArtifact | null {
      const entry = entries.get(path)
      if (!entry) return load(path, now)
      if (now - entry.checkedAt < TRUST_MS) return entry
      try {
        const stat = statSync(join(cacheDir, path))
        if (stat.mtimeMs === entry.mtimeMs && stat.size === entry.size) {
          entry.checkedAt = now
          return entry
        }
      } catch {
        drop(path)
        return null
      }
      return load(path, now)
    },
    /** The renderer wrote a new version: served at once, without reading it back (only if already cached). */
    written(paths: readonly string[], bytes: Uint8Array<ArrayBuffer>, mtimeMs: number): void {
      const now = Date.now()
      for (const path of paths) if (entries.has(path)) put(path, entryOf(path, bytes, mtimeMs, now))
    },
    removed(paths: readonly string[]): void {
      for (const path of paths) drop(path)
    },
  }
}

export type ArtifactCache = ReturnType<typeof createArtifactCache>
