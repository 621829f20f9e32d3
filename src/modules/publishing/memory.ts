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
  /** The file's inode: a new version arrives by rename, so it always has a new one. */
  ino: number
}

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
 * The artifacts the API has served, in memory, with Caddy's validators for the same file
 * (mtime seconds + size), so a client can revalidate against either. Each read checks the entry
 * with one `stat` (inode, mtime, size) instead of opening and reading the file, so a version
 * written by another process (a CLI command, a rebuild) is served at once; the renderer of this
 * process puts every new version in as it writes it. Bounded by `budgetBytes`: the oldest
 * entries go first.
 */
export function createArtifactCache(cacheDir: string, budgetBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, CachedArtifact>()
  let used = 0

  const entryOf = (path: string, bytes: Uint8Array<ArrayBuffer>, mtimeMs: number, ino: number): CachedArtifact => {
    const seconds = Math.floor(mtimeMs / 1000) * 1000
    return {
      bytes,
      etag: fileEtag(mtimeMs, bytes.length),
      lastModified: new Date(seconds).toUTCString(),
      lastModifiedMs: seconds,
      contentType: contentTypeOf(path),
      mtimeMs,
      size: bytes.length,
      ino,
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

  function load(path: string): CachedArtifact | null {
    const found = readFromDisk(join(cacheDir, path))
    if (!found) return null
    const entry = entryOf(path, found.bytes, found.mtimeMs, found.ino)
    put(path, entry)
    return entry
  }

  return {
    /** The artifact at this CACHE_DIR-relative file, or null when there is none. */
    get(path: string): CachedArtifact | null {
      const entry = entries.get(path)
      if (!entry) return load(path)
      const stat = statSync(join(cacheDir, path), { throwIfNoEntry: false })
      if (stat && stat.ino === entry.ino && stat.mtimeMs === entry.mtimeMs && stat.size === entry.size) return entry
      drop(path)
      return stat ? load(path) : null
    },
    /** The renderer replaced or removed these files: their entries go now, the next read takes the disk's. */
    changed(paths: readonly string[]): void {
      for (const path of paths) drop(path)
    },
  }
}

export type ArtifactCache = ReturnType<typeof createArtifactCache>
