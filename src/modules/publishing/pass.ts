import { contentEtag } from '../../http/conditional.ts'
import { latestHonestDue } from '../../shared/clock-steps.ts'
import { crashPoint } from './crash-hook.ts'
import type { Catalogue } from './catalogue.ts'
import type { CopyJobs } from './copy-jobs.ts'
import { COPIES_EVERY_MS, type Destinations } from './destinations.ts'
import { ABSENT, dueJobs, finishJobs, hashesOf, LANE, nextSeq, rebaseAhead, retryDelayMs, type Job, type JobResult } from './jobs.ts'
import { saveSubjectState } from './subjects.ts'
import { CACHE_MARKER, writeMarker } from './marker.ts'
import type { Artifact } from './kinds.ts'
import { servesBesideThreads, type ArtifactChange, type EngineDeps, type EngineStatus } from './engine.ts'
import { tally, type RenderStats } from './stats.ts'
import type { Waiters } from './waiters.ts'
import type { WriteOutcome } from './writer.ts'
import { bytesOf, type SliceResult } from './render-slice.ts'

/** Paths per pass: a pass is one read snapshot; what is left is taken by the next pass at once. */
export const PASS = 1_000
/**
 * Paths rendered per read transaction within a pass, so requests are answered in between; a
 * background pass starts no further slice once urgent work is due, so a publish waits at most
 * the slices in flight behind a site-wide re-render.
 */
export const SLICE = 100
/**
 * Paths per slice of a background pass in the server with render threads: a publish that arrives
 * while a site-wide re-render (or a rebuild) runs waits for the slices in flight
 * (`RENDER_WORKERS + 1`), so they are kept small there (at 10,000 posts a publish's p50 during a
 * re-render went from 2.45x to 1.58x its idle p50, the re-render's time unchanged:
 * docs/benchmarks.md). A CLI command answers no publish; without threads a background pass is one
 * slice of this thread's, each with its pass's closing write: both keep SLICE.
 */
export const BACKGROUND_SLICE = 25

/**
 * How long the render loop's thread works on a pass's files before it lets the event loop turn,
 * so a read arriving meanwhile is answered within about this long (docs/publishing.md, "Reads
 * never wait for renders").
 */
export const YIELD_MS = 3

/** One job's render: its bytes (null: the artifact must not exist), or the error. */
type Rendered = { job: Job; target: Artifact | null } & SliceResult

/**
 * One render pass: the due jobs read, rendered slice by slice from read snapshots (no write lock),
 * put on the destinations, and ended with one short write that clears the jobs nothing changed
 * since. Its state: the cache marker, moved once per pass before the first file changes.
 */
export function createPass(
  deps: EngineDeps,
  kinds: Catalogue,
  destinations: Destinations,
  copyJobs: CopyJobs,
  waiters: Waiters,
  status: EngineStatus,
) {
  const { db, log } = deps
  const now = () => deps.clock().getTime()

  /**
   * Before a pass first changes a file, the marker moves (database, then CACHE_DIR): a database
   * put back from an earlier copy then names another marker than the cache, and its rebuild
   * trusts neither its manifest nor its fingerprints.
   */
  let markerMoved = false
  function moveMarker(): void {
    if (markerMoved) return
    const marker = `${process.pid}.${nextSeq()}`
    db.transaction((tx) => saveSubjectState(tx, CACHE_MARKER, marker), { behavior: 'immediate' })
    markerMoved = true
    try {
      writeMarker(deps.cacheDir, marker)
    } catch (error) {
      // A full or read-only CACHE_DIR: the two markers now differ, so the next rebuild trusts
      // nothing, which is safe; the pass itself (a removal, say) goes on.
      log.warn('cache marker not written', { error: String(error) })
    }
  }

  /** One rendered job put on the destinations, or its failure logged for the retry. */
  async function settle(item: Rendered, known: string | undefined): Promise<{ result: JobResult; outcome: WriteOutcome | 'failed' }> {
    try {
      if ('error' in item) throw item.error
      const content = item.content === null ? null : bytesOf(item.content)
      const hash = content === null ? ABSENT : contentEtag(content)
      const placed = await destinations.place(item.job.path, content, hash, known, moveMarker)
      if (content !== null) deps.placing?.set(item.job.path, hash)
      const result: JobResult = { job: item.job, hash, failed: false, copiesDueAt: placed.copiesDueAt }
      // Copies not written (a full disk, a lost thread) are retried by a later job, like a failed render.
      if (placed.copying) copyJobs.track(result, placed.copying)
      return { result, outcome: placed.outcome }
    } catch (error) {
      status.lastError = { at: new Date(now()).toISOString(), path: item.job.path, error: String(error) }
      log.error('artifact render failed', { path: item.job.path, attempt: item.job.attempts + 1, error: String(error) })
      return { result: { job: item.job, failed: true }, outcome: 'failed' }
    }
  }

  /** Jobs a wall clock that has since stepped back scheduled too far ahead are due now (shared/clock-steps.ts). */
  function rebaseStepped(): void {
    const t = now()
    const longest = Math.max(kinds.longestRefreshMs, retryDelayMs(Infinity), COPIES_EVERY_MS)
    const rebased = rebaseAhead(db, t, latestHonestDue(t, longest))
    if (!rebased) return
    status.totals.rebased += rebased
    log.warn('render jobs due too far ahead (the clock stepped back): due now', { rebased })
  }

  /**
   * The jobs of the next pass: at most PASS of the urgent lane; only when none is due, at most PASS
   * of the background lane (a site-wide re-render), whose pass starts no further slice once urgent
   * work is due (`urgentDue`), so that work waits for the slices in flight at most.
   */
  function nextJobs(): { jobs: Job[]; background: boolean; full: boolean } {
    const urgent = dueJobs(db, now(), PASS)
    if (urgent.length) return { jobs: urgent, background: false, full: urgent.length === PASS }
    // Long only where render threads are to be kept busy across it; one slice on this thread alone.
    const size = deps.renderer.threaded ? PASS : SLICE
    const jobs = dueJobs(db, now(), size, LANE.background)
    // The lane found empty: the next site-wide re-render counts its progress from zero.
    if (!jobs.length) status.background.rendered = 0
    return { jobs, background: true, full: jobs.length === size }
  }

  const backgroundSlice = servesBesideThreads(deps) ? BACKGROUND_SLICE : SLICE

  /** Whether urgent work is due: a background pass then renders no further slice (one indexed read per slice). */
  const urgentDue = () => dueJobs(db, now(), 1).length > 0

  /** One pass over the next due jobs (the caller holds the render lock); whether more may be due. */
  return async function passLocked(stats: RenderStats): Promise<boolean> {
    markerMoved = false
    copyJobs.flush()
    rebaseStepped()
    const { jobs, background, full: taken } = nextJobs()
    let full = taken
    // A background slice's copies go to the copies thread too: the next slice renders meanwhile;
    // and every pass's, when slices render on threads: this thread then only writes main files.
    const { renderer } = deps
    destinations.beginPass(background || jobs.length > SLICE || renderer.threaded, background)
    const known = hashesOf(
      db,
      jobs.map((j) => j.path),
    )
    const results: JobResult[] = []
    const changes: ArtifactChange[] = []
    const slices: Job[][] = []
    const slice = background ? backgroundSlice : SLICE
    for (let i = 0; i < jobs.length; i += slice) slices.push(jobs.slice(i, i + slice))
    // Up to `depth` slices in flight: those rendering on threads and the one being written here.
    // A long background pass keeps the render threads busy across its slices (a pass's end is
    // where they idle) and stops starting slices once urgent work is due: the rest stay due.
    const renders: Promise<SliceResult[]>[] = []
    const startRender = (k: number) => {
      if (k >= slices.length) return
      if (background && k >= renderer.depth && urgentDue()) {
        full = true
        slices.length = k
        return
      }
      renders[k] = renderer.render(slices[k]!.map((job) => job.path))
    }
    for (let k = 0; k < renderer.depth; k++) startRender(k)
    let lap = performance.now()
    for (let k = 0; k < slices.length; k++) {
      const rendered = (await renders[k]!).map((result, i): Rendered => {
        const job = slices[k]![i]!
        return { job, target: kinds.parse(job.path), ...result }
      })
      for (const item of rendered) {
        if (performance.now() - lap > YIELD_MS) {
          await Bun.sleep(0)
          lap = performance.now()
        }
        crashPoint('rendered')
        // Never placed while its own earlier copies are still being written (they would land after it).
        const ready = destinations.ready(item.job.path)
        if (ready) await ready
        const { result, outcome } = await settle(item, known.get(item.job.path))
        results.push(result)
        if (outcome !== 'unchanged' && outcome !== 'failed') changes.push(kinds.change(item.job.path, item.target, outcome))
        if (changes.length) crashPoint('placed')
        const effect = item.target ? kinds.effect(item.target) : null
        tally(stats, effect, outcome)
        waiters.notify(item.job, effect, outcome)
      }
      delete renders[k]
      startRender(k + renderer.depth)
      if (k + 1 < slices.length) await Bun.sleep(0)
    }
    // The pass does not wait for its copies: the next one renders while they are written. No copy
    // is renamed in after its main file is replaced: a path is placed again only once its copies
    // are written (`ready` above), and the render lock goes back to other processes only once none
    // is under way (publisher.ts). Requests waiting for these artifacts were answered above.
    if (changes.length) crashPoint('renamed')
    // 'copied': the copies handed out, some perhaps still being written.
    if (changes.length) crashPoint('copied')
    const onChanges = deps.onPassChanges
    if (changes.length) deps.onPassPlaced?.(changes)
    try {
      if (results.length) finishJobs(db.$client, results, now(), changes.length && onChanges ? () => onChanges(changes) : undefined)
      copyJobs.recorded()
    } finally {
      for (const job of jobs) deps.placing?.delete(job.path)
    }
    if (changes.length) crashPoint('finished')
    if (results.length) {
      status.totals.passes++
      status.totals.rendered += results.length
    }
    if (background) status.background.rendered += results.length
    return full
  }
}
