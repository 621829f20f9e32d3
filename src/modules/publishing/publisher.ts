import { existsSync, lstatSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client.ts'
import { authors } from '../../db/schema/index.ts'
import { contentEtag } from '../../http/conditional.ts'
import type { Change, ChangeEffects, ChangeListener } from '../../shared/changes.ts'
import type { Logger } from '../../shared/log.ts'
import { cuttableDelay, type Clock } from '../../shared/time.ts'
import { latestHonestDue } from '../../shared/clock-steps.ts'
import type { PostRow } from '../posts/repo.ts'
import {
  ABSENT,
  backlog,
  dueJobs,
  finishJobs,
  forgetHashes,
  hashesOf,
  manifest,
  markStale,
  nextSeq,
  pendingPaths,
  rebaseAhead,
  retryDelayMs,
  saveSubjectState,
  replaceSubjectStates,
  stillPending,
  subjectState,
  type Job,
  type JobResult,
} from './jobs.ts'
import { walkCache } from './listing.ts'
import { createRenderLock } from './lock.ts'
import { armCrashHook, crashPoint } from './crash-hook.ts'
import { createIntegrity } from './integrity.ts'
import type { Copier } from './copies.ts'
import type { ArtifactCache } from './memory.ts'
import { aliasesOf, API, ARTIFACT_MARK, filesOf, pathOf, targetOf, type Target } from './paths.ts'
import {
  allPostStates,
  authorFootprint,
  authorStateOf,
  categoryFootprint,
  currentPostState,
  engagementFootprint,
  everyTarget,
  pathsOf,
  postFootprint,
  postStateOf,
  tagFootprint,
  type AuthorState,
  type PostState,
  resourcesFootprint,
} from './plan.ts'
import { renderTarget, renderTargets } from './render/artifact.ts'
import type { SiteOptions } from './snapshot.ts'
import { filesPresent, holds, isOrphanTemp, linkAliases, removeArtifact, SIDECARS, writeArtifact, type WriteOutcome } from './writer.ts'
import { CACHE_INPUTS, CACHE_MARKER, readMarker, siteInputs, writeMarker } from './inputs.ts'
import { everySiteTarget, pagesSitemapTargets, partnerPages, productTargets, siteTargetsFor } from '../site/plan.ts'
import { SITE_TOP } from '../site/targets.ts'
import { LANGUAGE_PATH, LANGUAGES } from '../../shared/language.ts'

export interface PublisherDeps extends SiteOptions {
  db: Db
  log: Logger
  clock: Clock
  cacheDir: string
  engagementRefreshSeconds: number
  openapi: string
  cache: ArtifactCache
  /** Where artifacts' precompressed copies are written (copies.ts); ended by `stop`. */
  copies: Copier
  /**
   * Whether a commit in this process renders its artifacts before the write answers (the server).
   * Off for CLI commands and the stdio MCP server: they only record the durable jobs, which the
   * running server's sweeper renders within a second (or the next start does), so no second
   * process ever writes into a live server's CACHE_DIR; `rebuild` renders explicitly.
   */
  renderOnCommit: boolean
  /**
   * Runs inside the short write that ends a pass, with the artifacts it wrote or removed or found
   * absent (never the unchanged ones): what it records (the cache purge, purge.ts; the mirror's
   * outbox, mirror/outbox.ts) commits with the pass or not at all.
   */
  onPassChanges?: (changes: readonly ArtifactChange[]) => void
}

/** One artifact a pass changed on disk: its main file (CACHE_DIR-relative), what it holds, what happened. */
export interface ArtifactChange {
  path: string
  target: Target | null
  outcome: Exclude<WriteOutcome, 'unchanged'>
}

export interface RenderStats {
  rendered: number
  written: number
  removed: number
  failed: number
  sitemapUpdated: boolean
  rssUpdated: boolean
}

/** Paths per pass: a pass is one read snapshot; what is left is taken by the next pass at once. */
const PASS = 1_000
/** Paths rendered per read transaction within a pass, so requests are answered in between. */
const SLICE = 100
const SWEEP_MS = 1_000
/** How long a kicked render loop waits for more changes before its pass reads the jobs. */
const GROUP_MS = 2
/**
 * How long, at most, a pass about to start waits for announced writes (their SEO checks still
 * running on the pool) to commit and join it: a check takes a few milliseconds, so concurrent
 * publishes land in one pass instead of trickling into one pass each.
 */
const GATHER_MS = 40
/** How soon a loop that found the render lock taken tries again for its waiting requests. */
const LOCKED_RETRY_MS = 100
/**
 * An artifact's compressed copies are written at most once per this span: a list page, feed or
 * sitemap that every pass of a publishing burst rewrites gets its main file each time (and the
 * old copies go, so none disagrees with it), and its `.br`/`.gz` once the span since its last
 * copies has passed, by a job due then. Brotli and gzip of such shared artifacts, and two of the
 * three files each, were most of a burst's writing; a reader meanwhile gets the current bytes
 * uncompressed.
 */
const COPIES_EVERY_MS = 1_000
/** How long a rebuild waits for another process's pass to end before it gives up. */
const LOCK_WAIT_MS = 30_000

const postSubject = Object.assign((id: number) => `post:${id}`, {
  prefix: 'post:',
  idOf: (subject: string) => Number(subject.slice('post:'.length)),
})
const authorSubject = Object.assign((id: number) => `author:${id}`, { prefix: 'author:' })

/** A rebuild's summary: what its passes did, and how many expected artifacts needed no render at all. */
export interface RebuildStats extends RenderStats {
  skipped: number
  /** Files found not to hold their recorded bytes (verify.ts), and how many of them were written again. */
  damaged: number
  repaired: number
}

/** How many of the newest posts a rebuild renders first (with the lists and feeds they head). */
const FIRST_POSTS = 20
const newestPosts = (states: ReadonlyMap<number, unknown>): number[] => [...states.keys()].sort((a, b) => b - a).slice(0, FIRST_POSTS)

/** `filesOnDisk`'s bits: the main file, then one per copy (`SIDECARS` order); all of them set: `COMPLETE`. */
const MAIN_FILE = 1
const COMPLETE = (MAIN_FILE << (SIDECARS.length + 1)) - 1

/** Removes a temp file no live writer will rename (gone already: nothing to do). */
function removeOrphanTemp(file: string, name: string, now: number): void {
  try {
    if (isOrphanTemp(name, lstatSync(file).mtimeMs, now)) unlinkSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

/** Changes to the tables `siteInputs` fingerprints. */
const SITE_WIDE = new Set<Change['kind']>(['category', 'tag', 'author', 'settings', 'resources'])

const emptyStats = (): RenderStats => ({ rendered: 0, written: 0, removed: 0, failed: 0, sitemapUpdated: false, rssUpdated: false })

/** One job's render: its bytes (null: the artifact must not exist), or the error. */
type Rendered = { job: Job; target: Target | null; content: string | null } | { job: Job; target: Target | null; error: unknown }

/** A request waiting for its own artifacts to be served: each path until a pass renders it at or past `seq`. */
interface Waiter {
  seq: number
  pending: Set<string>
  effects: RenderStats
  done(): void
}

/** A request never waits longer than this for its artifacts; what is left is rendered later and shows in `/healthz`. */
const WAIT_MS = 30_000

function merge(into: RenderStats, more: RenderStats): void {
  into.rendered += more.rendered
  into.written += more.written
  into.removed += more.removed
  into.failed += more.failed
  into.sitemapUpdated ||= more.sitemapUpdated
  into.rssUpdated ||= more.rssUpdated
}

const touches = (target: Target | null, stats: RenderStats) => {
  if (target?.kind === 'sitemap' || target?.kind === 'sitemapShard') stats.sitemapUpdated = true
  if (target?.kind === 'rss') stats.rssUpdated = true
}

const tally = (stats: RenderStats, target: Target | null, outcome: WriteOutcome | 'failed') => {
  if (outcome === 'failed') {
    stats.failed++
    return
  }
  stats.rendered++
  // Copies are files written too, but of bytes already served: no sitemap or feed changed for them.
  if (outcome === 'written' || outcome === 'copied') stats.written++
  if (outcome === 'removed') stats.removed++
  if (outcome === 'written' || outcome === 'removed') touches(target, stats)
}

/**
 * The publishing pipeline. A change listener records, inside the change's transaction, which
 * artifacts went stale (durable jobs). One render loop per process takes every due job in
 * passes: it reads a consistent snapshot (a read transaction, which never blocks a writer in
 * WAL mode), renders, compresses and writes outside any write lock, then ends the pass with one
 * short write that clears the jobs nothing changed since. A request that changed public content
 * waits for the first pass that renders its paths from a snapshot including its change, so N
 * concurrent publishes share passes and each list page or feed is rendered once per pass.
 */
export function createPublisher(deps: PublisherDeps) {
  const { db, log } = deps
  // Paths each change marked and under which sequence number, so its request can wait for them.
  const marked = new WeakMap<Change, { paths: string[]; seq: number }>()
  const waiters = new Set<Waiter>()
  let lastError: { at: string; path: string; error: string } | null = null
  // Since start: passes run and artifacts rendered, so coalescing shows in `/healthz`.
  const totals = { passes: 0, rendered: 0, rebased: 0 }
  const now = () => deps.clock().getTime()
  const lock = createRenderLock(deps.cacheDir)
  const integrity = createIntegrity({ db, cacheDir: deps.cacheDir, cache: deps.cache, now })

  function postTargets(tx: Tx, after: PostRow, before: PostRow | null): Target[] {
    const subject = postSubject(after.id)
    const old = subjectState<PostState>(tx, subject) ?? (before ? postStateOf(tx, before) : null)
    const current = currentPostState(tx, after.id)
    saveSubjectState(tx, subject, current)
    return postMoved(tx, after.id, old, current)
  }

  /** Everything showing a post as it was (`old`) or as it is now, the site's pages with it. */
  function postMoved(tx: Tx, id: number, old: PostState | null, current: PostState | null): Target[] {
    return [old, current].flatMap((state) => (state ? [...postFootprint(tx, deps, id, state), ...partnerPages(tx, state)] : []))
  }

  /** Every artifact, API and site, showing a post as it was (`old`) or is (`current`). */
  function shows(tx: Tx, id: number, old: PostState | null, current: PostState | null = null): Target[] {
    const api = postMoved(tx, id, old, current)
    return [...api, ...siteTargetsFor(tx, api)]
  }

  function authorTargets(tx: Tx, id: number): Target[] {
    const old = subjectState<AuthorState>(tx, authorSubject(id))
    const current = authorStateOf(tx, id)
    saveSubjectState(tx, authorSubject(id), current)
    return authorFootprint(tx, id, old, current)
  }

  /** The JSON artifacts a change touches, and the site pages showing the same data. */
  function plan(tx: Tx, change: Change): Target[] {
    const api = apiPlan(tx, change)
    // The publication's name is in every page's header, category names in every navigation, and
    // category and tag names in every feed item: such rare changes re-render the whole site.
    if (change.kind === 'settings') return [...api, ...everySiteTarget(tx, deps.sitemapShardSize)]
    // A category or tag also names its pages sitemap shard: disabled, it may leave that shard
    // empty, which the whole site's list no longer names.
    if (change.kind === 'category' || change.kind === 'tag')
      return [
        ...api,
        ...everySiteTarget(tx, deps.sitemapShardSize),
        ...pagesOnDisk([change.kind]),
        ...pagesSitemapTargets(change.kind, [change.id], deps.sitemapShardSize),
      ]
    // Counts show on the post's own page only (list cards carry none).
    if (change.kind === 'engagement')
      return [...api, ...api.flatMap((t) => (t.kind === 'post' ? [{ ...t, kind: 'page.post' as const }] : []))]
    const products =
      change.kind === 'resources' ? [...productTargets(tx, change.ids, deps.sitemapShardSize), ...pagesOnDisk(['products'])] : []
    const author = change.kind === 'author' ? pagesSitemapTargets('author', [change.id], deps.sitemapShardSize) : []
    return [...api, ...siteTargetsFor(tx, api), ...products, ...author]
  }

  function apiPlan(tx: Tx, change: Change): Target[] {
    switch (change.kind) {
      case 'post':
        return postTargets(tx, change.after, change.before)
      case 'category':
        return categoryFootprint(tx, change.id)
      case 'tag':
        return tagFootprint(tx, change.id)
      case 'author':
        return authorTargets(tx, change.id)
      case 'settings':
        return [{ kind: 'settings' }]
      case 'engagement': {
        const state = subjectState<PostState>(tx, postSubject(change.postId))
        return state ? engagementFootprint(tx, change.postId, state) : []
      }
      case 'resources':
        return resourcesFootprint(tx, change.ids)
    }
  }

  // Writes announced and not yet settled (committed, refused or failed): see `gathered`.
  let incoming = 0
  let allSettled: (() => void) | null = null

  /** Resolves once no announced write is pending, or after GATHER_MS: a pass then takes them all. */
  function gathered(): Promise<void> {
    if (!incoming) return Promise.resolve()
    const delay = cuttableDelay(GATHER_MS)
    allSettled = delay.cut
    return delay.done.then(() => {
      allSettled = null
    })
  }

  const listener: ChangeListener = {
    announced() {
      incoming++
    },
    settled() {
      incoming--
      if (!incoming) allSettled?.()
    },
    inTransaction(tx, change) {
      // The small tables are fingerprinted as a whole: after such a change the next rebuild
      // renders everything rather than trust a fingerprint taken before it.
      if (SITE_WIDE.has(change.kind)) saveSubjectState(tx, CACHE_INPUTS, null)
      const paths = pathsOf(plan(tx, change))
      const seq = nextSeq()
      if (change.kind === 'engagement') {
        markStale(tx, paths, now() + deps.engagementRefreshSeconds * 1000, seq)
        return
      }
      markStale(tx, paths, now(), seq)
      marked.set(change, { paths, seq })
    },
    async afterCommit(change): Promise<Partial<ChangeEffects>> {
      const mark = marked.get(change)
      if (!mark?.paths.length || !deps.renderOnCommit) return {}
      const effects = await served(mark.paths, mark.seq)
      return { sitemapUpdated: effects.sitemapUpdated, rssUpdated: effects.rssUpdated, artifactsFailed: effects.failed }
    },
  }

  /** Resolves once every path has been rendered at or past `seq` (or has failed and waits for its retry). */
  function served(paths: readonly string[], seq: number): Promise<RenderStats> {
    return new Promise((resolve) => {
      const effects = emptyStats()
      const timeout = setTimeout(() => release(waiter), WAIT_MS)
      const waiter: Waiter = {
        seq,
        pending: new Set(paths),
        effects,
        done: () => {
          clearTimeout(timeout)
          resolve(effects)
        },
      }
      waiters.add(waiter)
      kick()
    })
  }

  /** Answers a waiter whose paths could not all be rendered: they count as failed. */
  function release(waiter: Waiter): void {
    if (!waiters.delete(waiter)) return
    waiter.effects.failed += waiter.pending.size
    waiter.done()
  }

  function notify(job: Job, target: Target | null, outcome: WriteOutcome | 'failed'): void {
    for (const waiter of waiters) {
      if (job.seq < waiter.seq || !waiter.pending.delete(job.path)) continue
      tally(waiter.effects, target, outcome)
      if (!waiter.pending.size) {
        waiters.delete(waiter)
        waiter.done()
      }
    }
  }

  /**
   * Renders jobs from one read snapshot; no write lock is taken. The slice is rendered as a
   * batch; should that fail, each job is rendered alone, so one bad artifact fails alone.
   */
  function renderSlice(jobs: readonly Job[]): Rendered[] {
    return db.transaction(
      (tx) => {
        const source = { ...deps, db: tx }
        const targets = jobs.map((job) => targetOf(job.path))
        try {
          const known = targets.filter((t) => t !== null)
          const bytes = renderTargets(source, known)
          const rendered = new Map(known.map((t, i) => [t, bytes[i]!] as const))
          return jobs.map((job, i): Rendered => ({ job, target: targets[i]!, content: targets[i] ? rendered.get(targets[i]!)! : null }))
        } catch {
          return jobs.map((job, i): Rendered => {
            const target = targets[i]!
            try {
              return { job, target, content: target ? renderTarget(source, target) : null }
            } catch (error) {
              return { job, target, error }
            }
          })
        }
      },
      { behavior: 'deferred' },
    )
  }

  // When each artifact's copies were last written by this process, oldest first (COPIES_EVERY_MS),
  // on the monotonic clock: a step of the wall clock never holds copies back or keeps them due.
  const copiedAt = new Map<string, number>()
  function copied(path: string): void {
    copiedAt.delete(path)
    copiedAt.set(path, performance.now())
  }
  /** When an artifact's copies may next be written (a `now()` time): null when they may be now. */
  function copiesDue(path: string): number | null {
    const at = performance.now()
    for (const [oldest, when] of copiedAt) {
      if (at - when < COPIES_EVERY_MS) break
      copiedAt.delete(oldest)
    }
    const last = copiedAt.get(path)
    return last === undefined ? null : now() + Math.ceil(last + COPIES_EVERY_MS - at)
  }

  /**
   * Puts one rendered artifact on disk unless the manifest says its bytes are already there. Its
   * copies are handed to the copies thread (`copying`, which the pass waits for before it ends),
   * or left for later (`copiesDueAt`) when this process handed them out less than
   * COPIES_EVERY_MS ago.
   */
  function place(
    item: Extract<Rendered, { content: string | null }>,
    known: string | undefined,
  ): { outcome: WriteOutcome; hash: string; copiesDueAt?: number; copying?: Promise<boolean> } {
    const { job, target, content } = item
    const aliases = target ? aliasesOf(target) : []
    if (content === null) {
      if (known !== ABSENT) moveMarker()
      const outcome = removeArtifact(deps.cacheDir, job.path, aliases)
      deps.cache.changed([job.path, ...aliases])
      return { outcome, hash: ABSENT }
    }
    const bytes = Buffer.from(content)
    const hash = contentEtag(bytes)
    const due = copiesDue(job.path)
    const files = hash === known ? filesPresent(deps.cacheDir, job.path) : null
    if (files?.main && files.copies) return { outcome: 'unchanged', hash }
    if (files?.main && due !== null) return { outcome: 'unchanged', hash, copiesDueAt: due }
    // The bytes stand and only their copies are missing (left for later, or lost): the copies
    // alone, once the main file is seen to hold these bytes (a failed pass may have left another).
    if (files?.main && holds(deps.cacheDir, job.path, bytes)) return { outcome: 'copied', hash, copying: copy(job.path, bytes) }
    moveMarker()
    writeArtifact(deps.cacheDir, job.path, aliases, bytes, now())
    deps.cache.changed([job.path, ...aliases])
    return due === null ? { outcome: 'written', hash, copying: copy(job.path, bytes) } : { outcome: 'written', hash, copiesDueAt: due }
  }

  /**
   * Whether this pass hands its copies to the copies thread: only a pass of more than one slice
   * has a next slice to render while they are compressed. A smaller one (a publish's) writes them
   * itself, leaving the second core to the SEO check (docs/publishing.md, "Copies on their own thread").
   */
  let copiesOffThread = false

  /** An artifact's copies, written or handed out; they count for COPIES_EVERY_MS whether or not they get written. */
  function copy(path: string, bytes: Uint8Array): Promise<boolean> {
    copied(path)
    return deps.copies.copy(path, bytes, copiesOffThread)
  }

  /**
   * Waiters whose jobs another process (a `cli rebuild`) has done, gone from the table, are
   * answered; the rest wait for a later pass. Asked while that process holds the render lock, and
   * after each pass of this one: a rebuild may do a waiter's jobs and let go of the lock between
   * two of this loop's tries, and the pass that then takes the lock finds nothing due to notify.
   */
  function settleForeign(): void {
    for (const waiter of waiters) {
      const left = stillPending(db, [...waiter.pending])
      for (const path of waiter.pending) if (!left.has(path)) waiter.pending.delete(path)
      if (!waiter.pending.size) {
        waiters.delete(waiter)
        waiter.done()
      }
    }
  }

  /** One pass over at most PASS due jobs, under the render lock; returns how many it took. */
  async function pass(stats: RenderStats): Promise<number> {
    if (!lock.acquire()) {
      settleForeign()
      // Requests still waiting try again shortly (a CLI has no sweeper to do it).
      if (waiters.size) setTimeout(kick, LOCKED_RETRY_MS).unref()
      return 0
    }
    try {
      const taken = await passLocked(stats)
      if (waiters.size) settleForeign()
      return taken
    } finally {
      lock.release()
    }
  }

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

  /** One rendered job put on disk, or its failure logged for the retry. */
  function settle(
    item: Rendered,
    known: string | undefined,
  ): { result: JobResult; outcome: WriteOutcome | 'failed'; copying?: Promise<void> } {
    try {
      if ('error' in item) throw item.error
      const placed = place(item, known)
      const result: JobResult = { job: item.job, hash: placed.hash, failed: false, copiesDueAt: placed.copiesDueAt }
      // Copies not written (a full disk, a lost thread) are left for a later job, like those left for later on purpose.
      const copying = placed.copying?.then((written) => {
        if (!written) result.copiesDueAt = copiesDue(item.job.path) ?? now()
      })
      return { result, outcome: placed.outcome, copying }
    } catch (error) {
      lastError = { at: new Date(now()).toISOString(), path: item.job.path, error: String(error) }
      log.error('artifact render failed', { path: item.job.path, attempt: item.job.attempts + 1, error: String(error) })
      return { result: { job: item.job, failed: true }, outcome: 'failed' }
    }
  }

  async function passLocked(stats: RenderStats): Promise<number> {
    markerMoved = false
    rebaseStepped()
    const jobs = dueJobs(db, now(), PASS)
    copiesOffThread = jobs.length > SLICE
    const known = hashesOf(
      db,
      jobs.map((j) => j.path),
    )
    const results: JobResult[] = []
    const changes: ArtifactChange[] = []
    const copying: Promise<void>[] = []
    for (let i = 0; i < jobs.length; i += SLICE) {
      for (const item of renderSlice(jobs.slice(i, i + SLICE))) {
        crashPoint('rendered')
        const { result, outcome, copying: copies } = settle(item, known.get(item.job.path))
        results.push(result)
        if (copies) copying.push(copies)
        if (outcome !== 'unchanged' && outcome !== 'failed') changes.push({ path: item.job.path, target: item.target, outcome })
        if (changes.length) crashPoint('placed')
        tally(stats, item.target, outcome)
        notify(item.job, item.target, outcome)
      }
      if (i + SLICE < jobs.length) await Bun.sleep(0)
    }
    // Before the pass ends and gives the lock back: no copy is renamed in after a later pass (or
    // process) has replaced its main file. Requests waiting for these artifacts were answered above.
    if (changes.length) crashPoint('renamed')
    await Promise.all(copying)
    if (changes.length) crashPoint('copied')
    const onChanges = deps.onPassChanges
    if (results.length) finishJobs(db.$client, results, now(), changes.length && onChanges ? () => onChanges(changes) : undefined)
    if (changes.length) crashPoint('finished')
    if (jobs.length) {
      totals.passes++
      totals.rendered += jobs.length
    }
    return jobs.length
  }

  /** Jobs a wall clock that has since stepped back scheduled too far ahead are due now (shared/clock-steps.ts). */
  function rebaseStepped(): void {
    const t = now()
    const longest = Math.max(deps.engagementRefreshSeconds * 1000, retryDelayMs(Infinity), COPIES_EVERY_MS)
    const rebased = rebaseAhead(db, t, latestHonestDue(t, longest))
    if (!rebased) return
    totals.rebased += rebased
    log.warn('render jobs due too far ahead (the clock stepped back): due now', { rebased })
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
          await gathered()
          while ((await pass(stats)) === PASS);
        } while (again)
      } catch (error) {
        lastError = { at: new Date(now()).toISOString(), path: '', error: String(error) }
        log.error('artifact render pass failed', { error: String(error) })
        for (const waiter of waiters) release(waiter)
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

  /**
   * The site's pages now on disk under `{language}/{folder}/`: a renamed category, tag or product
   * leaves its pages under the old slug, which the database no longer names; re-rendered, they
   * render to nothing and go.
   */
  function pagesOnDisk(folders: readonly string[]): Target[] {
    const found: Target[] = []
    for (const language of LANGUAGES)
      for (const folder of folders) {
        const top = join(deps.cacheDir, LANGUAGE_PATH[language].slice(1), folder)
        if (!existsSync(top)) continue
        for (const entry of readdirSync(top, { recursive: true, withFileTypes: true })) {
          const target = entry.name === ARTIFACT_MARK ? targetOf(relative(deps.cacheDir, join(entry.parentPath, entry.name))) : null
          if (target) found.push(target)
        }
      }
    return found
  }

  /**
   * What the cache holds under the API's folder and the site's, one walk: every artifact name
   * (a path without its copy extension; alias links and junk included) with a bit for its main
   * file and one per copy (`COMPLETE` when all are there). Orphaned temp files go. A walk of
   * our own (`walkCache`): Node's recursive `readdir` also tries to open every alias link as a
   * folder, which costs a failed system call per link.
   */
  function filesOnDisk(): Map<string, number> {
    const found = new Map<string, number>()
    const t = now()
    const note = (path: string) => {
      let copy = SIDECARS.length - 1
      while (copy >= 0 && !path.endsWith(SIDECARS[copy]!.ext)) copy--
      const name = copy < 0 ? path : path.slice(0, -SIDECARS[copy]!.ext.length)
      found.set(name, (found.get(name) ?? 0) | (copy < 0 ? MAIN_FILE : MAIN_FILE << (copy + 1)))
    }
    // The site's root page is the file `@` itself, with its copies beside it.
    const rootFiles = new Set([ARTIFACT_MARK, ...SIDECARS.map((s) => ARTIFACT_MARK + s.ext)])
    if (existsSync(deps.cacheDir)) for (const entry of readdirSync(deps.cacheDir)) if (rootFiles.has(entry)) note(entry)
    // Folders unchanged since their recorded listing are not listed again (listing.ts).
    walkCache(deps.cacheDir, [API.slice(1), ...SITE_TOP.filter((top) => top !== ARTIFACT_MARK)], (path, folder, name) =>
      // A temp file: another process may be writing it right now, unless its writer is gone.
      name.startsWith('.') ? removeOrphanTemp(`${folder}/${name}`, name, t) : note(path),
    )
    return found
  }

  function pruneEmptyFolders(folder: string): void {
    if (!existsSync(folder) || !statSync(folder).isDirectory()) return
    for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) pruneEmptyFolders(join(folder, entry.name))
    if (folder !== deps.cacheDir && readdirSync(folder).length === 0) rmdirSync(folder)
  }

  /** Runs passes until nothing is due, waiting for a run already under way. */
  async function renderAllDue(): Promise<RenderStats> {
    const stats = emptyStats()
    for (;;) {
      const more = await runLoop()
      merge(stats, more)
      if (!dueJobs(db, now(), 1).length || more.rendered + more.failed === 0) return stats
    }
  }

  /**
   * Brings CACHE_DIR to exactly what the database calls for. Every expected artifact and every
   * file on disk is considered, but only what may differ is rendered (docs/publishing.md,
   * "Rebuilds"): when the cache's marker, the render code, the options and the small tables are
   * those last recorded, a post is rendered again only where its fingerprint changed (and with it
   * everything that shows it), plus what is missing on disk, what should not be there, and jobs
   * still waiting. Otherwise, or with `force`, everything is rendered; a foreign or forced cache
   * also loses its manifest, so every file is written again. Marking is one transaction, then
   * passes render; killed half-way, the rest stays marked and the next start finishes it.
   */
  async function rebuild(options: { force?: boolean; verify?: boolean } = {}): Promise<RebuildStats> {
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

  async function rebuildLocked(force: boolean): Promise<RenderStats & { skipped: number }> {
    const disk = filesOnDisk()
    const onDisk = (path: string) => ((disk.get(path) ?? 0) & MAIN_FILE) !== 0
    const present = (path: string) => disk.get(path) === COMPLETE
    const marker = readMarker(deps.cacheDir)
    let skipped = 0
    // Each alias link's main file: links are made with their file, so a lost one is made again below.
    const aliasOf = new Map<string, string>()
    db.transaction(
      (tx) => {
        const inputs = siteInputs(tx, deps)
        const ownCache = !force && marker !== null && subjectState<string>(tx, CACHE_MARKER) === marker
        const trusted = ownCache && subjectState<string>(tx, CACHE_INPUTS) === inputs
        const after = allPostStates(tx)
        // Only the posts whose recorded state differs come back (with what was recorded).
        const differing = replaceSubjectStates(tx, postSubject.prefix, new Map([...after].map(([id, state]) => [postSubject(id), state])))
        const enabled = tx.select({ id: authors.id }).from(authors).where(eq(authors.status, 1)).all()
        replaceSubjectStates(tx, authorSubject.prefix, new Map(enabled.map((row) => [authorSubject(row.id), authorStateOf(tx, row.id)])))
        saveSubjectState(tx, CACHE_INPUTS, inputs)
        if (marker !== null) saveSubjectState(tx, CACHE_MARKER, marker)

        const hashes = manifest(tx)
        const targets = [...everyTarget(tx, deps), ...everySiteTarget(tx, deps.sitemapShardSize)]
        // Each target's file and the alias links that stand for it. A path that can hold no
        // artifact (an odd slug) drops out; one the manifest holds a file for was checked when
        // it was written, by this same render code when the cache is trusted.
        const every: string[] = []
        const expected = new Set<string>()
        for (const target of targets) {
          const { path, aliases } = filesOf(target)
          if (expected.has(path) || !((trusted && hashes.get(path)) || targetOf(path))) continue
          expected.add(path)
          every.push(path)
          for (const alias of aliases) aliasOf.set(alias, path)
        }
        // Names on disk nothing calls for by that spelling: an alias link stands for its main
        // file; anything unknown is rendered to nothing and goes.
        const strays = [...disk.keys()]
          .filter((name) => !expected.has(name))
          .map((name) => {
            const known = aliasOf.get(name)
            if (known) return known
            const target = targetOf(name)
            return target ? pathOf(target) : name
          })
          .filter((path) => !expected.has(path))
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
          const moved = [...differing].flatMap(([subject, old]) => {
            const id = postSubject.idOf(subject)
            const current = after.get(id) ?? null
            if (old?.inputs === current?.inputs) return []
            return shows(tx, id, old, current)
          })
          stale = [...pathsOf(moved), ...every.filter((path) => !settled(path)), ...strays, ...pendingPaths(tx)]
        } else stale = [...every, ...strays]
        const marked = new Set(stale)
        skipped = every.filter((path) => !marked.has(path)).length
        // Newest first: what shows the newest posts (their pages, the lists and feeds they head) is
        // due a millisecond earlier, so a long rebuild behind live readers renders it first.
        const first = new Set(pathsOf(newestPosts(after).flatMap((id) => shows(tx, id, after.get(id)!))))
        const [early, late] = [[...marked].filter((path) => first.has(path)), [...marked].filter((path) => !first.has(path))]
        markStale(tx, early, now() - 1, nextSeq())
        markStale(tx, late, now(), nextSeq())
      },
      { behavior: 'immediate' },
    )
    const stats = await renderAllDue()
    for (const [alias, path] of aliasOf)
      if (disk.get(alias) !== COMPLETE && existsSync(join(deps.cacheDir, path))) linkAliases(deps.cacheDir, path, [alias])
    // Folders emptied by removals go (a removal takes only its own folder).
    if (stats.removed) for (const top of [API.slice(1), ...SITE_TOP]) pruneEmptyFolders(join(deps.cacheDir, top))
    return { ...stats, skipped }
  }

  let timer: ReturnType<typeof setInterval> | null = null
  return {
    listener,
    rebuild,
    /**
     * Crash repair at start: temp files of dead writers go, the files of jobs left behind are
     * checked against the manifest (a kill between a pass's renames and its closing write), and
     * the jobs are rendered.
     */
    async repair(): Promise<RenderStats> {
      filesOnDisk()
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
    /** The render backlog for `/healthz`. */
    health() {
      const t = now()
      const jobs = backlog(db, t)
      return {
        ...jobs,
        oldestDueMs: jobs.oldestDueAt === null ? null : Math.max(0, t - jobs.oldestDueAt),
        lastError,
        waiting: waiters.size,
        ...totals,
        integrity: integrity.health(),
      }
    },
    /** Starts the sweeper (engagement refreshes, retries, leftovers); it never keeps the process alive by itself. */
    start() {
      armCrashHook()
      timer ??= setInterval(() => void runLoop(), SWEEP_MS)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = null
      await running
      for (const waiter of waiters) release(waiter)
      await deps.copies.close()
    },
  }
}

export type Publisher = ReturnType<typeof createPublisher>
