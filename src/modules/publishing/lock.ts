import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { processAlive, readCacheNote } from './writer.ts'

const LOCK = '.folio-render.lock'
/**
 * Rewritten (new contents) by every renderer as it gives the lock back, before the lock goes: a
 * reader that keeps artifacts in memory learns from it that files may have changed under it.
 */
export const RENDERED_MARK = '.folio-rendered'
/** A lock untouched this long belongs to a stuck process; passes touch it as they go. */
const STALE_MS = 60_000

/**
 * One renderer per CACHE_DIR at a time, across processes (the server's render loop, a
 * `cli rebuild` beside it): a lock file created exclusively, naming its process. A lock whose
 * process is gone (kill -9) or that nobody touched for a minute is taken over. Re-entrant
 * within a process, so a rebuild can hold it across its passes.
 */
export function createRenderLock(cacheDir: string) {
  const file = join(cacheDir, LOCK)
  let depth = 0

  function tryCreate(): boolean {
    try {
      const fd = openSync(file, 'wx')
      try {
        writeSync(fd, String(process.pid))
      } finally {
        closeSync(fd)
      }
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw error
    }
  }

  function abandoned(): boolean {
    try {
      const pid = Number(readFileSync(file, 'utf8'))
      return !pid || !processAlive(pid) || Date.now() - statSync(file).mtimeMs > STALE_MS
    } catch {
      return false
    }
  }

  return {
    /** Takes the lock (or a level of it); false when another live process holds it. */
    acquire(): boolean {
      if (depth > 0) {
        depth++
        const now = new Date()
        utimesSync(file, now, now)
        return true
      }
      mkdirSync(cacheDir, { recursive: true })
      if (!tryCreate()) {
        if (!abandoned()) return false
        try {
          unlinkSync(file)
        } catch {
          // Another process took it over first; the create below settles who wins.
        }
        if (!tryCreate()) return false
      }
      depth = 1
      return true
    },
    release(): void {
      if (depth === 0 || --depth > 0) return
      try {
        writeFileSync(join(cacheDir, RENDERED_MARK), `${process.pid} ${crypto.randomUUID()}`)
      } catch {
        // A full disk: the lock still goes back; readers that saw it held stat what they serve.
      }
      try {
        unlinkSync(file)
      } catch {
        // Already gone (taken over as stale): nothing to give back.
      }
    },
  }
}

export type RenderLock = ReturnType<typeof createRenderLock>

/** The pid named in CACHE_DIR's render lock: null when nobody holds it, NaN while its holder is still writing it. */
export function renderLockHolder(cacheDir: string): number | null {
  const text = readCacheNote(cacheDir, LOCK)
  return text === null ? null : Number(text || NaN)
}

/** What the last renderer wrote into RENDERED_MARK ('' before any render). */
export const lastRenderMark = (cacheDir: string): string => readCacheNote(cacheDir, RENDERED_MARK) ?? ''
