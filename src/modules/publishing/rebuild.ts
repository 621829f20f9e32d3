import { join } from 'node:path'
import type { Catalogue } from './catalogue.ts'
import { wholeWithoutCopies } from './copies-rule.ts'
import { COMPLETE, filesOnDisk, MAIN_FILE, pruneEmptyFolders } from './disk-scan.ts'
import { CACHE_INPUTS, CACHE_MARKER, readMarker } from './marker.ts'
import { ABSENT, forgetHashes, LANE, manifest, markStale, nextSeq, pendingPaths, saveSubjectState, subjectState } from './jobs.ts'
import type { createIntegrity } from './integrity.ts'
import type { RenderLock } from './lock.ts'
import type { EngineDeps } from './engine.ts'
import type { RebuildStats, RenderStats } from './stats.ts'

/** How long a rebuild waits for another process's pass to end before it gives up. */
const LOCK_WAIT_MS = 30_000

/**
 * Brings CACHE_DIR to exactly what the database calls for. Every expected artifact and every
 * file on disk is considered, but only what may differ is rendered (docs/publishing.md,
 * "Rebuilds"): when the cache's marker, the render code, the options and the small tables are
 * those last recorded, a post is rendered again only where its fingerprint changed (and with it
 * everything that shows it), plus what is missing on disk, what should not be there, and jobs
 * still waiting. Otherwise, or with `force`, everything is rendered; a foreign or forced cache
 * also loses its manifest, so every file is written again. Marking is one transaction (the disk
 * is scanned before it), then passes render; killed half-way, the rest stays marked and the next
 * start finishes it.
 */
export function createRebuild(
  deps: EngineDeps,
  kinds: Catalogue,
  lock: RenderLock,
  /** Renders every due job; `disk`: what the rebuild's scan found (destinations.ts `unthrottled`). */
  renderAllDue: (disk: ReadonlyMap<string, number>) => Promise<RenderStats>,
  integrity: ReturnType<typeof createIntegrity>,
) {
  const { db } = deps
  const now = () => deps.clock().getTime()

  async function rebuildLocked(force: boolean): Promise<RenderStats & { skipped: number }> {
    const disk = filesOnDisk(deps.cacheDir, kinds.tops, now())
    const onDisk = (path: string) => ((disk.get(path) ?? 0) & MAIN_FILE) !== 0
    // Whole: the main file with its copies, or without them when too small to need any (one stat
    // for each file seen without copies, which are few but for the small ones).
    const present = (path: string) => {
      const bits = disk.get(path)
      return bits === COMPLETE || (bits !== undefined && (bits & MAIN_FILE) !== 0 && wholeWithoutCopies(join(deps.cacheDir, path)))
    }
    const marker = readMarker(deps.cacheDir)
    let skipped = 0
    db.transaction(
      (tx) => {
        const survey = kinds.survey(tx)
        const ownCache = !force && marker !== null && subjectState<string>(tx, CACHE_MARKER) === marker
        const trusted = ownCache && subjectState<string>(tx, CACHE_INPUTS) === survey.inputs
        saveSubjectState(tx, CACHE_INPUTS, survey.inputs)
        if (marker !== null) saveSubjectState(tx, CACHE_MARKER, marker)

        const hashes = manifest(tx)
        // Each artifact's file. A path that can hold no artifact (an odd slug) drops out; one the
        // manifest holds a file for was checked when it was written, by this same render code when
        // the cache is trusted.
        const every: string[] = []
        const expected = new Set<string>()
        for (const artifact of kinds.every(tx)) {
          const path = kinds.file(artifact)
          if (expected.has(path) || !((trusted && hashes.get(path)) || kinds.parse(path))) continue
          expected.add(path)
          every.push(path)
        }
        // Names on disk nothing calls for: anything unknown (junk, the alias links of older
        // versions, `@language=en`, now looked up as the main file by Caddy and the API) is
        // rendered to nothing and goes.
        const strays = [...disk.keys()].filter((name) => !expected.has(name))
        // The manifest vouches for a file only while it is on disk, for an absent artifact only
        // while nothing is there, and for nothing in a cache not its own. A file whose copies are
        // missing (left for later, or lost) keeps its hash: its pass writes the copies alone, once
        // it has read the same bytes in the file (`writeCopies`), and the file keeps its mtime.
        forgetHashes(
          tx,
          [...hashes]
            .filter(([path, hash]) => !ownCache || (hash === ABSENT ? onDisk(path) || !expected.has(path) : !onDisk(path)))
            .map(([p]) => p),
        )
        let stale: string[]
        if (trusted) {
          const settled = (path: string) => {
            const hash = hashes.get(path)
            return hash !== undefined && (hash === ABSENT ? !onDisk(path) : present(path))
          }
          stale = [...kinds.pathsOf(survey.moved()), ...every.filter((path) => !settled(path)), ...strays, ...pendingPaths(tx)]
        } else stale = [...every, ...strays]
        const marked = new Set(stale)
        skipped = every.filter((path) => !marked.has(path)).length
        // In the background lane, so publishes meanwhile go first. Newest first: what readers meet
        // first (the newest posts' pages, the lists and feeds they head) is due a millisecond
        // earlier, so a long rebuild behind live readers renders it first.
        const first = new Set(kinds.pathsOf(survey.first()))
        markStale(
          tx,
          [...marked].filter((path) => first.has(path)),
          now() - 1,
          nextSeq(),
          LANE.background,
        )
        markStale(
          tx,
          [...marked].filter((path) => !first.has(path)),
          now(),
          nextSeq(),
          LANE.background,
        )
      },
      { behavior: 'immediate' },
    )
    const stats = await renderAllDue(disk)
    // Folders emptied by removals go (a removal takes only its own folder).
    if (stats.removed) for (const top of kinds.tops) pruneEmptyFolders(deps.cacheDir, join(deps.cacheDir, top))
    return { ...stats, skipped }
  }

  return async function rebuild(options: { force?: boolean; verify?: boolean } = {}): Promise<RebuildStats> {
    // Held across the whole rebuild, so the server beside it leaves these passes alone.
    const deadline = Date.now() + LOCK_WAIT_MS
    while (!lock.acquire()) {
      if (Date.now() > deadline) throw new Error('another process keeps rendering into CACHE_DIR; try again later')
      await Bun.sleep(50)
    }
    try {
      // Files a killed pass renamed in unrecorded (or, with `verify`, any damaged file) lose their hash first.
      const damaged = await integrity.find(options.verify ? 'all' : 'pending')
      const stats = await rebuildLocked(options.force ?? false)
      return { ...stats, damaged: damaged.length, repaired: integrity.settle(damaged) }
    } finally {
      lock.release()
    }
  }
}
