import type { Queryable } from '../../db/client.ts'
import type { ChangeEffects, ChangeListener } from '../../shared/changes.ts'
import { heapBound } from '../../shared/heap-bound.ts'
import type { Catalogue } from './catalogue.ts'
import { createCopyJobs } from './copy-jobs.ts'
import { armCrashHook } from './crash-hook.ts'
import { createDestinations } from './destinations.ts'
import { scanDisk } from './disk-scan.ts'
import { createGathering } from './gathering.ts'
import { CACHE_INPUTS } from './marker.ts'
import { backlog, dueJobs, LANE, markStale, nextSeq } from './jobs.ts'
import { saveSubjectState } from './subjects.ts'
import { createIntegrity } from './integrity.ts'
import { createRenderLock } from './lock.ts'
import type { EngineDeps, EngineStatus } from './engine.ts'
import { createPass } from './pass.ts'
import { createRebuild } from './rebuild.ts'
import { emptyStats, merge, type RenderStats } from './stats.ts'
import { createWaiters } from './waiters.ts'

export type { ArtifactChange, EngineDeps } from './engine.ts'
export type { RenderStats } from './stats.ts'

const SWEEP_MS = 1_000
/** How long a kicked render loop waits for more changes before its pass reads the jobs. */
const GROUP_MS = 2
/** How soon a loop that found the render lock taken tries again for its waiting requests. */
const LOCKED_RETRY_MS = 100
/** The order a change's plans are marked in: a path planned at two paces ends with the most urgent. */
const PACE_ORDER = { refresh: 0, background: 1, now: 2 } as const

/**
 * The publishing engine, knowing no artifact kind (kinds.ts). A change listener records, inside
 * the change's transaction, which artifacts went stale (durable jobs, as the kinds plan them).
 * One render loop per process takes every due job in passes (pass.ts): it reads a consistent
 * snapshot (a read transaction, which never blocks a writer in WAL mode), renders, compresses and
 * writes outside any write lock, then ends the pass with one short write that clears the jobs
 * nothing changed since. A request that changed public content waits (waiters.ts) for the first
 * pass that renders its paths from a snapshot including its change, so N concurrent publishes
 * share passes and each list page or feed is rendered once per pass.
 */
export function createPublisher(deps: EngineDeps, kinds: Catalogue) {
  const { db, log } = deps
  // Paths each change marked and under which sequence number, so its request can wait for them.
  const marked = new WeakMap<object, { paths: string[]; seq: number }>()
  const waiters = createWaiters(db)
  const status: EngineStatus = { lastError: null, totals: { passes: 0, rendered: 0, rebased: 0, locked: 0 }, background: { rendered: 0 } }
  const now = () => deps.clock().getTime()
  const lock = createRenderLock(deps.cacheDir)
  const integrity = createIntegrity({ db, cacheDir: deps.cacheDir, cache: deps.cache, now })
  const destinations = createDestinations({
    cacheDir: deps.cacheDir,
    cache: deps.cache,
    copies: deps.copies,
    now,
    monotonic: deps.monotonic,
    placer: deps.placer,
  })
  // Copies that land after their pass recorded its changes are changes of their own ('copied').
  const onChanges = deps.onPassChanges
  const copyJobs = createCopyJobs(
    db.$client,
    now,
    onChanges && ((paths) => onChanges(paths.map((path) => kinds.change(path, kinds.parse(path), 'copied')))),
  )
  const passLocked = createPass(deps, kinds, destinations, copyJobs, waiters, status)

  const gathering = createGathering()

  const listener: ChangeListener = {
    announced: gathering.announced,
    settled: gathering.settled,
    inTransaction(tx, change) {
      // After a change to what the kinds fingerprint as a whole, the next rebuild renders
      // everything rather than trust a fingerprint taken before it.
      if (kinds.widens(change)) saveSubjectState(tx, CACHE_INPUTS, null)
      // Each kind says how soon (kinds.ts `Pace`): its request waits for `now` and `background`
      // work, never for a `refresh`; the urgent lane is marked last, so a path both plan is urgent.
      const seq = nextSeq()
      const t = now()
      const waited: string[] = []
      for (const { artifacts, pace, afterMs } of kinds.plan(tx, change).sort((a, b) => PACE_ORDER[a.pace] - PACE_ORDER[b.pace])) {
        const paths = kinds.pathsOf(artifacts)
        if (pace === 'refresh') markStale(tx, paths, t + afterMs, seq)
        else {
          markStale(tx, paths, t, seq, pace === 'background' ? LANE.background : LANE.now)
          waited.push(...paths)
        }
      }
      if (waited.length) marked.set(change, { paths: [...new Set(waited)], seq })
    },
    async afterCommit(change): Promise<Partial<ChangeEffects>> {
      const mark = marked.get(change)
      if (!mark?.paths.length || !deps.renderOnCommit) return {}
      const served = waiters.served(mark.paths, mark.seq)
      kick()
      const effects = await served
      return { sitemapUpdated: effects.sitemapUpdated, rssUpdated: effects.rssUpdated, artifactsFailed: effects.failed }
    },
  }

  /** One pass over the next due jobs (pass.ts), under the render lock; whether more may be due. */
  async function pass(stats: RenderStats): Promise<boolean> {
    if (!lock.acquire()) {
      status.totals.locked++
      waiters.settleForeign()
      // Requests still waiting try again shortly (a CLI has no sweeper to do it).
      if (waiters.size) setTimeout(kick, LOCKED_RETRY_MS).unref()
      return false
    }
    try {
      const taken = await passLocked(stats)
      if (waiters.size) waiters.settleForeign()
      return taken
    } finally {
      releaseAfterCopies()
    }
  }

  // Between passes, garbage past a bound is collected (shared/heap-bound.ts): memory stays flat over
  // a long rebuild; never on the server's serving thread while slices render on render threads.
  const heap = heapBound()

  /**
   * Gives the pass's level of the render lock back once no copy is under way, so no other process
   * places a file whose old copies are still to land; the next pass of this process takes its own
   * level meanwhile (the lock is re-entrant) and does not wait. The copies written by then have
   * their jobs ended first (copy-jobs.ts).
   */
  const releasing = new Set<Promise<void>>()
  function releaseAfterCopies(): void {
    const release = destinations
      .drained()
      .then(() => copyJobs.flush())
      .catch((error: unknown) => log.warn('copies not recorded as written', { error: String(error) }))
      .finally(() => {
        lock.release()
        releasing.delete(release)
      })
    releasing.add(release)
  }

  // The one render loop of this process: passes run one after another, never two at once.
  let running: Promise<RenderStats> | null = null
  let again = false

  /** Runs passes until nothing is due; a kick during a run adds passes to it. */
  function runLoop(): Promise<RenderStats> {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      const stats = emptyStats()
      try {
        do {
          again = false
          await gathering.gathered()
          // Between passes the event loop turns, so requests (a publish) are answered and marked;
          // after each, a publish's as a rebuild's, garbage past the bound is collected.
          for (let more = true; more;) {
            more = await pass(stats)
            heap.settle()
            if (more) await Bun.sleep(0)
          }
        } while (again)
      } catch (error) {
        status.lastError = { at: new Date(now()).toISOString(), path: '', error: String(error) }
        log.error('artifact render pass failed', { error: String(error) })
        waiters.releaseAll()
      } finally {
        running = null
      }
      return stats
    })()
    return running
  }

  /**
   * Starts a run soon: the short window lets the changes committed by concurrent requests in the
   * meantime join the same pass (group commit) instead of each starting its own.
   */
  let scheduled = false
  function kick(): void {
    if (running) {
      again = true
      return
    }
    if (scheduled) return
    scheduled = true
    setTimeout(() => {
      scheduled = false
      void runLoop()
    }, GROUP_MS)
  }

  /** Runs passes until nothing is due, waiting for a run already under way. */
  async function renderAllDue(): Promise<RenderStats> {
    const stats = emptyStats()
    for (;;) {
      const more = await runLoop()
      merge(stats, more)
      const due = dueJobs(db, now(), 1).length || dueJobs(db, now(), 1, LANE.background).length
      if (!due || more.rendered + more.failed === 0) {
        await copiesSettled()
        return stats
      }
    }
  }

  /** Resolves once every copy handed out is written and recorded, and the lock's levels given back. */
  async function copiesSettled(): Promise<void> {
    await Promise.all(releasing)
  }

  let timer: ReturnType<typeof setInterval> | null = null
  return {
    listener,
    rebuild: createRebuild(deps, kinds, lock, (disk) => destinations.unthrottled(renderAllDue, disk), integrity),
    /**
     * Crash repair at start: temp files of dead writers go, the files of jobs left behind are
     * checked against the manifest (a kill between a pass's renames and its closing write), and
     * the jobs are rendered.
     */
    async repair(): Promise<RenderStats> {
      scanDisk(deps.cacheDir, kinds.tops, now(), () => {})
      const damaged = await integrity.find('pending')
      const stats = await renderAllDue()
      integrity.settle(damaged)
      return stats
    },
    /** The integrity check (verify.ts) of every recorded file, paced, with its repair; for the server's background check. */
    async verify(bytesPerSecond: number, signal: AbortSignal): Promise<{ damaged: number; repaired: number }> {
      const damaged = await integrity.find('all', { bytesPerSecond, signal })
      if (!damaged.length) return { damaged: 0, repaired: 0 }
      await renderAllDue()
      return { damaged: damaged.length, repaired: integrity.settle(damaged) }
    },
    /**
     * Marks artifact files (CACHE_DIR-relative main files) stale in the background lane, inside the
     * caller's transaction: work outside any change, such as the search catch-up's. The render loop
     * takes them after urgent work.
     */
    markBackground(tx: Queryable, paths: readonly string[]): void {
      markStale(tx, paths, now(), nextSeq(), LANE.background)
      kick()
    },
    /** The render backlog for `/healthz`. */
    health() {
      const t = now()
      const { background, ...jobs } = backlog(db, t)
      return {
        ...jobs,
        // A site-wide re-render's progress: what its lane has left, and what it rendered so far.
        reRender: { pending: background, rendered: status.background.rendered },
        oldestDueMs: jobs.oldestDueAt === null ? null : Math.max(0, t - jobs.oldestDueAt),
        lastError: status.lastError,
        waiting: waiters.size,
        ...status.totals,
        integrity: integrity.health(),
      }
    },
    /** Starts the sweeper (refreshes a kind left for later, retries, leftovers); it never keeps the process alive by itself. */
    start() {
      armCrashHook()
      timer ??= setInterval(() => void runLoop(), SWEEP_MS)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = null
      await running
      await copiesSettled()
      waiters.releaseAll()
      await deps.copies.close()
      await deps.renderer.close()
      await deps.placer?.close()
    },
  }
}

export type Publisher = ReturnType<typeof createPublisher>
