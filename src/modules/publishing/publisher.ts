import { existsSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Db, Tx } from '../../db/client.ts'
import { authors, posts } from '../../db/schema/index.ts'
import type { Change, ChangeEffects, ChangeListener } from '../../shared/changes.ts'
import type { Logger } from '../../shared/log.ts'
import type { Clock } from '../../shared/time.ts'
import type { PostRow } from '../posts/repo.ts'
import { discoverable } from '../posts/visibility.ts'
import { clearJobs, clearSubjects, duePaths, markStale, pendingJobs, postpone, saveSubjectState, subjectState } from './jobs.ts'
import { API, targetOf, type Target } from './paths.ts'
import {
  authorFootprint,
  authorStateOf,
  categoryFootprint,
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
import { renderTarget } from './render/artifact.ts'
import type { SiteOptions } from './snapshot.ts'
import { isOrphanTemp, writeArtifact, type WriteOutcome } from './writer.ts'
import { eq } from 'drizzle-orm'
import { everySiteTarget, partnerPages, productTargets, siteTargetsFor } from '../site/plan.ts'
import { SITE_TOP } from '../site/targets.ts'

export interface PublisherDeps extends SiteOptions {
  db: Db
  log: Logger
  clock: Clock
  cacheDir: string
  engagementRefreshSeconds: number
  openapi: string
}

export interface RenderStats {
  rendered: number
  written: number
  removed: number
  sitemapUpdated: boolean
  rssUpdated: boolean
}

/**
 * Paths rendered per transaction. Rendering holds SQLite's write lock, so no commit can slip
 * between reading the data and renaming the file (a later change always re-marks and re-renders
 * after it); a small batch keeps writers from waiting long.
 */
const BATCH = 50
const RETRY_MS = 60_000
const SWEEP_MS = 1_000
/** Pause between render batches, so other writers get the lock (see renderAllDue). */
const PAUSE_MS = 20

const postSubject = (id: number) => `post:${id}`
const authorSubject = (id: number) => `author:${id}`

const emptyStats = (): RenderStats => ({ rendered: 0, written: 0, removed: 0, sitemapUpdated: false, rssUpdated: false })

/**
 * The publishing pipeline: a change listener that records, inside the change's transaction,
 * which artifacts went stale (durable jobs), renders them right after the commit, and a
 * sweeper that renders what is left (engagement counts, work of a process that died).
 */
export function createPublisher(deps: PublisherDeps) {
  const { db, log } = deps
  // Paths each change marked, so its own commit renders exactly those and reports what they did.
  const marked = new WeakMap<Change, string[]>()

  function postTargets(tx: Tx, after: PostRow, before: PostRow | null): Target[] {
    const subject = postSubject(after.id)
    const old = subjectState<PostState>(tx, subject) ?? (before ? postStateOf(tx, before) : null)
    const now = postStateOf(tx, after)
    saveSubjectState(tx, subject, now)
    return [old, now].flatMap((state) => (state ? [...postFootprint(tx, deps, after.id, state), ...partnerPages(tx, state)] : []))
  }

  function authorTargets(tx: Tx, id: number): Target[] {
    const old = subjectState<AuthorState>(tx, authorSubject(id))
    const now = authorStateOf(tx, id)
    saveSubjectState(tx, authorSubject(id), now)
    return authorFootprint(tx, id, old, now)
  }

  /** The JSON artifacts a change touches, and the site pages showing the same data. */
  function plan(tx: Tx, change: Change): Target[] {
    const api = apiPlan(tx, change)
    // The publication's name is in every page's header, category names in every navigation, and
    // category and tag names in every feed item: such rare changes re-render the whole site.
    if (change.kind === 'settings' || change.kind === 'category' || change.kind === 'tag') return [...api, ...everySiteTarget(tx, deps.sitemapShardSize)]
    if (change.kind === 'engagement') return [...api, ...api.filter((t) => t.kind === 'post').map((t) => ({ ...t, kind: 'page.post' as const }))]
    const extra = change.kind === 'resources' ? productTargets(tx, change.ids) : []
    return [...api, ...siteTargetsFor(tx, api), ...extra]
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

  const listener: ChangeListener = {
    inTransaction(tx, change) {
      const paths = pathsOf(plan(tx, change))
      const now = deps.clock().getTime()
      if (change.kind === 'engagement') {
        markStale(tx, paths, now + deps.engagementRefreshSeconds * 1000)
        return
      }
      markStale(tx, paths, now)
      marked.set(change, paths)
    },
    async afterCommit(change): Promise<Partial<ChangeEffects>> {
      const paths = marked.get(change)
      if (!paths?.length) return {}
      try {
        const stats = renderDue(paths)
        return { sitemapUpdated: stats.sitemapUpdated, rssUpdated: stats.rssUpdated }
      } catch (error) {
        // The change is committed and its jobs are durable: the sweeper retries them.
        log.error('artifact render failed', { error: String(error) })
        return {}
      }
    },
  }

  function renderOne(tx: Tx, path: string, stats: RenderStats): void {
    const target = targetOf(path)
    let outcome: WriteOutcome
    try {
      const content = target ? renderTarget({ ...deps, db: tx }, target) : null
      outcome = writeArtifact(deps.cacheDir, path, content, deps.clock().getTime())
    } catch (error) {
      log.error('artifact render failed', { path, error: String(error) })
      postpone(tx, path, deps.clock().getTime() + RETRY_MS)
      return
    }
    clearJobs(tx, [path])
    stats.rendered++
    if (outcome === 'written') stats.written++
    if (outcome === 'removed') stats.removed++
    if (outcome === 'written' || outcome === 'removed') {
      if (target?.kind === 'sitemap' || target?.kind === 'sitemapShard') stats.sitemapUpdated = true
      if (target?.kind === 'rss') stats.rssUpdated = true
    }
  }

  /** One batch in one write transaction; returns how many due paths it found. */
  function renderBatch(stats: RenderStats, among?: readonly string[]): number {
    return db.transaction(
      (tx) => {
        const paths = duePaths(tx, deps.clock().getTime(), BATCH, among)
        for (const path of paths) renderOne(tx, path, stats)
        return paths.length
      },
      { behavior: 'immediate' },
    )
  }

  /** Renders the due jobs among `paths` now (a change's own artifacts, right after its commit). */
  function renderDue(paths: readonly string[]): RenderStats {
    const stats = emptyStats()
    for (let i = 0; i < paths.length; i += BATCH) renderBatch(stats, paths.slice(i, i + BATCH))
    return stats
  }

  /**
   * Renders every due job, pausing between batches: SQLite's busy handler polls at growing
   * intervals, so a writer that re-takes the lock at once would starve the others (requests,
   * or a CLI rebuild running beside the server).
   */
  async function renderAllDue(): Promise<RenderStats> {
    const stats = emptyStats()
    while (renderBatch(stats) === BATCH) await Bun.sleep(PAUSE_MS)
    return stats
  }

  let sweeping = false
  /** The periodic sweep: due jobs (engagement refreshes, leftovers), batch by batch. */
  async function sweep(): Promise<void> {
    if (sweeping) return
    sweeping = true
    try {
      const stats = await renderAllDue()
      if (stats.written || stats.removed) log.info('artifacts refreshed', { ...stats })
    } catch (error) {
      log.error('artifact sweep failed', { error: String(error) })
    } finally {
      sweeping = false
    }
  }

  /** Every artifact file under the API's folder, as CACHE_DIR-relative artifact paths; orphaned temp files go. */
  function filesOnDisk(): string[] {
    const found = new Set<string>()
    const tops = [API.slice(1), ...SITE_TOP].map((top) => join(deps.cacheDir, top)).filter((top) => existsSync(top))
    const entries = tops.flatMap((top) =>
      statSync(top).isDirectory() ? readdirSync(top, { recursive: true, withFileTypes: true }) : [{ isFile: () => true, parentPath: deps.cacheDir, name: relative(deps.cacheDir, top) }],
    )
    for (const entry of entries) {
      if (!entry.isFile()) continue
      const file = join(entry.parentPath, entry.name)
      if (entry.name.startsWith('.')) {
        // A temp file: another process may be writing it right now, unless its writer is gone.
        if (isOrphanTemp(entry.name, statSync(file).mtimeMs, deps.clock().getTime())) unlinkSync(file)
        continue
      }
      found.add(relative(deps.cacheDir, file).replace(/\.(gz|br)$/, ''))
    }
    return [...found]
  }

  function pruneEmptyFolders(folder: string): void {
    if (!existsSync(folder) || !statSync(folder).isDirectory()) return
    for (const entry of readdirSync(folder, { withFileTypes: true })) if (entry.isDirectory()) pruneEmptyFolders(join(folder, entry.name))
    if (folder !== deps.cacheDir && readdirSync(folder).length === 0) rmdirSync(folder)
  }

  /**
   * Regenerates every artifact from the database: every expected path and every file on disk is
   * marked stale in one transaction, then rendered batch by batch. Killed half-way, the rest stays
   * marked and the next start finishes it; a file that should not exist renders to nothing and goes.
   */
  async function rebuild(): Promise<RenderStats> {
    db.transaction(
      (tx) => {
        clearSubjects(tx)
        for (const row of tx.select().from(posts).where(discoverable).all()) saveSubjectState(tx, postSubject(row.id), postStateOf(tx, row))
        for (const row of tx.select({ id: authors.id }).from(authors).where(eq(authors.status, 1)).all())
          saveSubjectState(tx, authorSubject(row.id), authorStateOf(tx, row.id))
        const every = [...everyTarget(tx, deps), ...everySiteTarget(tx, deps.sitemapShardSize)]
        markStale(tx, [...new Set([...pathsOf(every), ...filesOnDisk()])], deps.clock().getTime())
      },
      { behavior: 'immediate' },
    )
    const stats = await renderAllDue()
    for (const top of [API.slice(1), ...SITE_TOP]) pruneEmptyFolders(join(deps.cacheDir, top))
    return stats
  }

  let timer: ReturnType<typeof setInterval> | null = null
  return {
    listener,
    rebuild,
    /** Crash repair at start: temp files of dead writers go, jobs left behind are rendered. */
    async repair(): Promise<RenderStats> {
      filesOnDisk()
      return renderAllDue()
    },
    pending: () => pendingJobs(db),
    /** Starts the sweeper; it never keeps the process alive by itself. */
    start() {
      timer ??= setInterval(() => void sweep(), SWEEP_MS)
      timer.unref()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}

export type Publisher = ReturnType<typeof createPublisher>
