import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from '../../shared/log.ts'
import { VERIFY_BYTES_PER_SECOND } from './integrity.ts'
import type { Publisher } from './publisher.ts'
import { readCacheNote, writeCacheNote } from './writer.ts'

/** How often the server reads every artifact back against the manifest (docs/operations.md, "Faults"). */
const VERIFY_EVERY_MS = 24 * 60 * 60 * 1000
/** Present while a server runs on CACHE_DIR; found at start, it says the last one did not stop cleanly. */
const RUNNING = '.folio-running'
/** The response header of artifacts served while a rebuild replaces them (`X-Folio-Artifacts: stale`). */
export const STALE_HEADER = 'X-Folio-Artifacts'

/** Whether CACHE_DIR holds artifacts to serve at all (only an empty one makes the start wait for a rebuild). */
export function hasArtifacts(cacheDir: string, tops: readonly string[]): boolean {
  // A top is a folder (`api`, `en`) or a file at the root (`@`): only a folder with something in it
  // counts (a lone root file is no whole cache to serve stale), and a file is never read as a folder.
  return tops.some((top) => {
    const entry = join(cacheDir, top)
    return existsSync(entry) && statSync(entry).isDirectory() && readdirSync(entry).length > 0
  })
}

/**
 * The server's care of CACHE_DIR beyond the render loop: a cache rebuild (its stamp changed) runs
 * in the background while the existing files are served, stale but whole; the integrity check
 * (verify.ts) runs in the background after an unclean start and every VERIFY_EVERY_MS, paced at
 * VERIFY_BYTES_PER_SECOND.
 */
export function createCacheUpkeep(cacheDir: string, publisher: Publisher, log: Logger) {
  let rebuilding: Promise<void> | null = null
  let verifying: Promise<void> | null = null
  let timer: ReturnType<typeof setInterval> | null = null
  const stopping = new AbortController()
  // Only the server notes its run (`begin`); a CLI command's stop leaves the note alone.
  let running = false

  function verify(why: string): void {
    if (verifying) return
    verifying = publisher
      .verify(VERIFY_BYTES_PER_SECOND, stopping.signal)
      .then((found) => log[found.damaged ? 'warn' : 'info']('artifacts verified', { why, ...found }))
      .catch((error) => log.error('artifact verification failed', { why, error: String(error) }))
      .finally(() => {
        verifying = null
      })
  }

  return {
    /** Whether the files served are those of before a cache invalidation (a rebuild is under way). */
    stale: () => rebuilding !== null,
    /** Notes the server's start; true when the one before it did not stop cleanly (killed, crashed). */
    begin(): boolean {
      const unclean = readCacheNote(cacheDir, RUNNING) !== null
      writeCacheNote(cacheDir, RUNNING, String(process.pid))
      running = true
      return unclean
    },
    /** Runs `work` (the rebuild) without holding the start; the files stay served meanwhile. */
    rebuildInBackground(work: () => Promise<void>): void {
      rebuilding = work()
        .catch((error) => log.error('artifact rebuild failed', { error: String(error) }))
        .finally(() => {
          rebuilding = null
        })
    },
    /** The integrity check now (after an unclean start) and on its schedule. */
    scheduleVerify(now: boolean): void {
      if (now) verify('unclean start')
      timer ??= setInterval(() => verify('schedule'), VERIFY_EVERY_MS)
      timer.unref()
    },
    /** Waits for background work, then marks the stop as clean. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer)
      timer = null
      stopping.abort()
      await rebuilding
      await verifying
      if (running) rmSync(join(cacheDir, RUNNING), { force: true })
    },
  }
}
