import { statfsSync } from 'node:fs'
import { extract } from 'tar'

/**
 * Unpacks a tar (gzipped or not) under `cwd`: plain files and folders only, and only those whose
 * path `accept`s (a link, a device or a `../` goes nowhere), at most `maxBytes` in all, counted from
 * each entry's declared size before its bytes are written. Returns false when the archive expands
 * past that: a tar (or gzip) bomb stops at the bound, and the caller removes what `cwd` holds.
 */
export async function unpackBounded(file: string, cwd: string, accept: (path: string) => boolean, maxBytes: number): Promise<boolean> {
  let total = 0
  let over = false
  await extract({
    file,
    cwd,
    strict: true,
    filter: (path, entry) => {
      if (over || !('type' in entry) || (entry.type !== 'File' && entry.type !== 'Directory') || !accept(path)) return false
      total += entry.size ?? 0
      over = total > maxBytes
      return !over
    },
  })
  return !over
}

/** What an archive unpacked under `dir` may take of its disk: 90 % of the space free now. */
export function spareBytes(dir: string): number {
  const disk = statfsSync(dir)
  return Math.floor(disk.bavail * disk.bsize * 0.9)
}
