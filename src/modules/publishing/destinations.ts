import type { Monotonic } from '../../shared/time.ts'
import { copiesOf } from './copies-rule.ts'
import { createCopiesThrottle } from './copies-throttle.ts'
import { junkCopyNames } from './disk-scan.ts'
import type { Copier } from './copies.ts'
import { ABSENT } from './jobs.ts'
import type { ArtifactCache } from './memory.ts'
import { placeHere, type PlacedFile, type Placer } from './placing.ts'
import { filesPresent, holds, type WriteOutcome } from './writer.ts'

/**
 * An artifact's compressed copies are written at most once per this span: a list page, feed or
 * sitemap that every pass of a publishing burst rewrites gets its main file each time (and the
 * old copies go, so none disagrees with it), and its `.br`/`.gz` once the span since its last
 * copies has passed, by a job due then. Brotli and gzip of such shared artifacts, and two of the
 * three files each, were most of a burst's writing; a reader meanwhile gets the current bytes
 * uncompressed.
 */
export const COPIES_EVERY_MS = 1_000

/**
 * Copies handed out and not yet written, at most: a pass that finds this many under way waits for
 * the oldest before it places more, so the copies thread lags a bounded way behind, and the bytes
 * it holds stay within one slice's (pass.ts SLICE), as when a rebuild's passes of one slice each
 * waited for all of their copies at their end (200 showed ~35 MB more peak RSS in a rebuild).
 */
export const COPIES_IN_FLIGHT = 100

/** The names a rebuild's scan found in CACHE_DIR (marking.ts stages them in SQLite). */
export interface ScannedNames {
  has(path: string): boolean
}

/** Where a pass's bytes go. */
export interface DestinationDeps {
  cacheDir: string
  /** The in-memory read cache: told of every path whose file changed. */
  cache: ArtifactCache
  /** The precompressed copies (copies.ts). */
  copies: Copier
  now(): number
  /** The throttle's clock (copies-throttle.ts); `performance.now()` by default. */
  monotonic?: Monotonic
  /** Where main files are written and removed (placing.ts): this thread by default. */
  placer?: Placer
}

export interface Placed {
  outcome: WriteOutcome
  /** When the copies left for later are due (a `now()` time). */
  copiesDueAt?: number
  /** The copies being written; resolves to whether they were. */
  copying?: Promise<boolean>
}

/**
 * The write destinations a pass puts an artifact on, one call: the disk (a temp file and a rename,
 * removal: writer.ts), the in-memory read cache (told which files changed), and the
 * precompressed copies (throttled: COPIES_EVERY_MS). The S3 mirror and the CDN purge follow
 * durably from what a pass changed (`onPassChanges`, recorded with the pass's closing write).
 */
export function createDestinations(deps: DestinationDeps) {
  const { cacheDir, cache } = deps
  const placer = deps.placer ?? placeHere(cacheDir)
  /** One main file written or removed; the read cache is told even when that failed, since the file may have changed. */
  const placeFile = (path: string, bytes: Uint8Array | null, vacant = false): Promise<PlacedFile> =>
    placer.place(path, bytes, deps.now(), vacant).finally(() => cache.changed([path]))
  const throttle = createCopiesThrottle(COPIES_EVERY_MS, deps.monotonic)
  /**
   * Whether this pass hands its copies to the copies thread: only a pass of more than one slice
   * has a next slice to render while they are compressed. A smaller one (a publish's) writes them
   * itself, leaving the second core to the SEO check (docs/publishing.md, "Copies on their own thread").
   */
  let copiesOffThread = false
  /**
   * Whether this pass's copies follow the throttle. A background pass (a site-wide re-render) and
   * every pass of a rebuild write each path once: their copies are written at once, so a rebuild
   * ends with every copy in place (a later `rebuild --verify` finds nothing to do) even for paths a
   * publish wrote a moment before. The throttle is for the bursts of the urgent lane.
   */
  let throttled = true
  /** Rebuilds under way (`unthrottled`): while one runs, no pass is throttled. */
  let rebuilding = 0

  /** When an artifact's copies may next be written (a `now()` time): null when they may be now. */
  function copiesDue(path: string): number | null {
    const wait = throttle.waitMs(path)
    return wait === null ? null : deps.now() + wait
  }

  /** Each path's copies under way, oldest first: none of these paths is placed again until they are written. */
  const inFlight = new Map<string, Promise<boolean>>()

  /**
   * What a rebuild's scan found on disk (`unthrottled`), and the paths placed since: a path in
   * neither has no file at all, so its first write looks for none (writer.ts `vacant`). Under the
   * render lock nothing else writes CACHE_DIR, and every write of this process comes through here.
   */
  let scanned: { disk: ScannedNames; placed: Set<string> } | null = null
  function vacant(path: string): boolean {
    if (!scanned) return false
    const { disk, placed } = scanned
    // A copy the rule never gives it (a `.br` of an older release) is noted under its own name:
    // the write still looks for it, so no copy of other bytes stands beside the new main file.
    const nothing = !placed.has(path) && !disk.has(path) && !junkCopyNames(path).some((name) => disk.has(name))
    placed.add(path)
    return nothing
  }

  /**
   * An artifact's copies, written or handed out; they count for COPIES_EVERY_MS whether or not they
   * get written. `seconds`: the mtime of the main file just written with these bytes.
   */
  function copy(path: string, bytes: Uint8Array, seconds?: number): Promise<boolean> {
    throttle.copied(path)
    const copying = deps.copies.copy(path, bytes, copiesOffThread, seconds).finally(() => {
      if (inFlight.get(path) === copying) inFlight.delete(path)
    })
    inFlight.set(path, copying)
    return copying
  }

  return {
    /**
     * What must settle before `path` is placed: its own copies still under way (never another
     * path's), and, while COPIES_IN_FLIGHT are under way, the oldest of them. Undefined: nothing.
     */
    ready(path: string): Promise<unknown> | undefined {
      const own = inFlight.get(path)
      if (inFlight.size < COPIES_IN_FLIGHT) return own
      return Promise.all([own, inFlight.values().next().value])
    },
    /** Resolves once no copy is under way (the render lock is given back, and the process ends, only then). */
    async drained(): Promise<void> {
      while (inFlight.size) await Promise.all(inFlight.values())
    },
    beginPass(large: boolean, background = false): void {
      copiesOffThread = large
      throttled = !background && rebuilding === 0
    },
    /**
     * Runs `work` (a rebuild) with every pass's copies written at once: a rebuild ends with every
     * copy of what it rendered in place, whichever lane its jobs were in (a path a publish left
     * pending stays in the urgent lane). `disk`: the names its scan found in CACHE_DIR (disk-scan.ts),
     * under the render lock held since, so a path it did not find is written without looking for
     * its old files (an emptied or new CACHE_DIR: three system calls fewer per artifact).
     */
    async unthrottled<T>(work: () => Promise<T>, disk?: ScannedNames): Promise<T> {
      rebuilding++
      if (disk) scanned = { disk, placed: new Set() }
      try {
        return await work()
      } finally {
        rebuilding--
        if (disk) scanned = null
      }
    },
    /**
     * Puts one rendered artifact (null: it must not exist) on the destinations unless the manifest
     * (`known`) says its bytes are already there. `changing` runs before the first file changes.
     * Its copies are handed to the copies thread (`copying`: the pass does not wait for them, but
     * places this path again only once they are written, `ready`), or left for later
     * (`copiesDueAt`) when this process handed them out less than COPIES_EVERY_MS ago; an artifact
     * too small for copies (copies-rule.ts) has neither.
     */
    async place(path: string, bytes: Uint8Array | null, hash: string, known: string | undefined, changing: () => void): Promise<Placed> {
      const nothingThere = vacant(path)
      if (bytes === null) {
        if (known !== ABSENT) changing()
        return { outcome: (await placeFile(path, null)).outcome }
      }
      // Too small for copies (copies-rule.ts): none written, none due, never throttled. With no
      // copies whose absence tells of a main file a failed pass replaced, its bytes are compared
      // instead (under 1 KiB: one read).
      const extensions = copiesOf(path, bytes.length)
      const copies = extensions.length > 0
      const due = copies && throttled ? copiesDue(path) : null
      if (!copies) {
        if (hash === known && holds(cacheDir, path, bytes)) return { outcome: 'unchanged' }
      } else {
        const files = hash === known ? filesPresent(cacheDir, path, extensions) : null
        if (files?.main && files.copies) return { outcome: 'unchanged' }
        if (files?.main && due !== null) return { outcome: 'unchanged', copiesDueAt: due }
        // The bytes stand and only their copies are missing (left for later, or lost): the copies
        // alone, once the main file is seen to hold these bytes (a failed pass may have left another).
        if (files?.main && holds(cacheDir, path, bytes)) return { outcome: 'copied', copying: copy(path, bytes) }
      }
      changing()
      const { seconds } = await placeFile(path, bytes, nothingThere)
      if (!copies) return { outcome: 'written' }
      return due === null ? { outcome: 'written', copying: copy(path, bytes, seconds) } : { outcome: 'written', copiesDueAt: due }
    },
  }
}

export type Destinations = ReturnType<typeof createDestinations>
