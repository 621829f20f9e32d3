import { join } from 'node:path'
import type { Catalogue } from './catalogue.ts'
import { wholeWithoutCopies } from './copies-rule.ts'
import { completeBits, MAIN_FILE, pruneEmptyFolders } from './disk-scan.ts'
import { markingStage, MARKING_CHUNK, type ExpectedFile } from './marking.ts'
import type { ScannedNames } from './destinations.ts'
import { CACHE_INPUTS, CACHE_MARKER, readMarker } from './marker.ts'
import { ABSENT, LANE, markStale, nextSeq, pendingPaths } from './jobs.ts'
import { saveSubjectState, subjectState } from './subjects.ts'
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
 * is scanned before it) walking sorted chunks, so its memory does not grow with the site; then passes render; killed half-way, the rest stays marked and the next
 * start finishes it.
 */
export function createRebuild(
  deps: EngineDeps,
  kinds: Catalogue,
  lock: RenderLock,
  /** Renders every due job; `disk`: what the rebuild's scan found (destinations.ts `unthrottled`). */
  renderAllDue: (disk: ScannedNames) => Promise<RenderStats>,
  integrity: ReturnType<typeof createIntegrity>,
  /** Rows the marking holds at once (marking.ts); a test makes it smaller than its site. */
  chunk = MARKING_CHUNK,
) {
  const { db } = deps
  const now = () => deps.clock().getTime()

  async function rebuildLocked(force: boolean): Promise<RenderStats & { skipped: number }> {
    // Whole: the main file with the copies it gets (copies-rule.ts), or without them when too small
    // to need any (one stat for each file seen without copies, which are few but for the small ones).
    const present = ({ path, bits }: ExpectedFile) =>
      bits === completeBits(path) || ((bits & MAIN_FILE) !== 0 && wholeWithoutCopies(join(deps.cacheDir, path)))
    const marker = readMarker(deps.cacheDir)
    let skipped = 0
    // The disk, the manifest and every expected file are compared in SQLite, a chunk at a time (marking.ts).
    const stage = markingStage(db.$client, chunk)
    try {
      stage.scan(deps.cacheDir, kinds.tops, now())
      db.transaction(
        (tx) => {
          const survey = kinds.survey(tx)
          const ownCache = !force && marker !== null && subjectState<string>(tx, CACHE_MARKER) === marker
          const trusted = ownCache && subjectState<string>(tx, CACHE_INPUTS) === survey.inputs
          saveSubjectState(tx, CACHE_INPUTS, survey.inputs)
          if (marker !== null) saveSubjectState(tx, CACHE_MARKER, marker)

          // Each artifact's file. A path that can hold no artifact (an odd slug) drops out; one the
          // manifest holds a file for was checked when it was written, by this same render code when
          // the cache is trusted.
          stage.expect(
            kinds.every(tx).map((artifact) => kinds.file(artifact)),
            (path, hash) => !!((trusted && hash) || kinds.parse(path)),
          )
          // The manifest vouches for a file only while it is on disk, for an absent artifact only
          // while nothing is there, and for nothing in a cache not its own. A file whose copies are
          // missing (left for later, or lost) keeps its hash: its pass writes the copies alone, once
          // it has read the same bytes in the file (`writeCopies`), and the file keeps its mtime.
          stage.forget(ownCache)
          // In the background lane, so publishes meanwhile go first. Newest first: what readers meet
          // first (the newest posts' pages, the lists and feeds they head) is due a millisecond
          // earlier, so a long rebuild behind live readers renders it first.
          const first = new Set(kinds.pathsOf(survey.first()))
          const [early, late] = [
            { dueAt: now() - 1, seq: nextSeq() },
            { dueAt: now(), seq: nextSeq() },
          ]
          const mark = (paths: readonly string[]) => {
            markStale(
              tx,
              paths.filter((path) => first.has(path)),
              early.dueAt,
              early.seq,
              LANE.background,
            )
            markStale(
              tx,
              paths.filter((path) => !first.has(path)),
              late.dueAt,
              late.seq,
              LANE.background,
            )
          }
          // A trusted cache renders what moved, what is waiting, and each file the manifest does
          // not vouch for as it is on disk (an absent artifact's entry is only left where nothing is).
          const due = new Set(trusted ? [...kinds.pathsOf(survey.moved()), ...pendingPaths(tx)] : [])
          mark([...due])
          const settled = (file: ExpectedFile) => file.hash !== null && (file.hash === ABSENT || present(file))
          for (const files of stage.expected()) {
            const stale = trusted ? files.filter((file) => !due.has(file.path) && !settled(file)) : files
            if (trusted) skipped += files.filter((file) => !due.has(file.path) && settled(file)).length
            mark(stale.map((file) => file.path))
          }
          // Names on disk nothing calls for: anything unknown (junk, the alias links of older
          // versions, `@language=en`, now looked up as the main file by Caddy and the API) is
          // rendered to nothing and goes.
          for (const strays of stage.strays()) mark(strays.map((stray) => stray.path))
        },
        { behavior: 'immediate' },
      )
      // The scan's names stay staged while the passes run: a path it did not find is written
      // without looking for an old file (destinations.ts `unthrottled`).
      const stats = await renderAllDue(stage)
      // Folders emptied by removals go (a removal takes only its own folder).
      if (stats.removed) for (const top of kinds.tops) pruneEmptyFolders(deps.cacheDir, join(deps.cacheDir, top))
      return { ...stats, skipped }
    } finally {
      stage.drop()
    }
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
