import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join, relative } from 'node:path'
import { copiesOf } from '../../src/modules/publishing/copies-rule.ts'
import { SIDECARS } from '../../src/modules/publishing/writer.ts'

type Entry =
  { path: string; kind: 'folder' } | { path: string; kind: 'file'; size: number } | { path: string; kind: 'link'; target: string }

/** Every folder, file (with its size) and symlink under `root`, parents before children. */
function entriesUnder(root: string): Entry[] {
  const entries: Entry[] = []
  const walk = (folder: string) => {
    for (const dirent of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, dirent.name)
      const path = relative(root, full)
      if (dirent.isSymbolicLink()) entries.push({ path, kind: 'link', target: readlinkSync(full) })
      else if (dirent.isDirectory()) {
        entries.push({ path, kind: 'folder' })
        walk(full)
      } else if (dirent.isFile()) entries.push({ path, kind: 'file', size: lstatSync(full).size })
    }
  }
  walk(root)
  return entries
}

/**
 * The disk's part of a rebuild, as a baseline in the same run: the same folders, files (by size)
 * and links as under `root`, made in a new folder beside it, each file written to a temp name and
 * renamed into place as the writer does, with nothing rendered, compressed or compared. What a
 * rebuild that writes these files cannot go below on this filesystem. The copy is removed after.
 */
export function filesAlone(root: string, scratch: string): { files: number; ms: number } {
  const entries = entriesUnder(root)
  const largest = entries.reduce((n, e) => (e.kind === 'file' && e.size > n ? e.size : n), 0)
  const bytes = new Uint8Array(Math.max(1, largest)).fill(0x61)
  const into = mkdtempSync(join(scratch, 'folio-files-alone-'))
  try {
    const started = performance.now()
    for (const entry of entries) {
      const at = join(into, entry.path)
      if (entry.kind === 'folder') mkdirSync(at)
      else if (entry.kind === 'link') symlinkSync(entry.target, at)
      else {
        writeFileSync(`${at}.tmp`, bytes.subarray(0, entry.size))
        renameSync(`${at}.tmp`, at)
      }
    }
    return { files: entries.filter((e) => e.kind === 'file').length, ms: performance.now() - started }
  } finally {
    rmSync(into, { recursive: true, force: true })
  }
}

/**
 * The compression part of a rebuild, as a baseline in the same run: every main file under `root`
 * compressed again by the writer's own encoders (brotli 5, gzip 6) into the copies the rule gives
 * it (copies-rule.ts `copiesOf`), on this thread, nothing written. Files are read before the clock starts, one at a time.
 */
export function compressionAlone(root: string): { artifacts: number; ms: number } {
  const mains = entriesUnder(root).filter(
    (e) => e.kind === 'file' && !SIDECARS.some((s) => e.path.endsWith(s.ext)) && !e.path.split('/').pop()!.startsWith('.'),
  )
  let ms = 0
  for (const { path } of mains) {
    const bytes = readFileSync(join(root, path))
    const started = performance.now()
    const copies = copiesOf(path, bytes.length)
    for (const sidecar of SIDECARS) if (copies.includes(sidecar.ext)) sidecar.encode(bytes)
    ms += performance.now() - started
  }
  return { artifacts: mains.length, ms }
}
