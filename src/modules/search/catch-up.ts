import type { Db, Tx } from '../../db/client.ts'
import type { Logger } from '../../shared/log.ts'
import { indexPost, staleSearchIds } from './fts.ts'

/**
 * The server's search catch-up (docs/search.md): the posts whose index rows are missing or stale
 * (changed behind the API's back, or every post after the upgrade that added search) are indexed
 * in the background once the server answers, a slice per short write transaction, yielding
 * between slices so requests are answered meanwhile. At ~17 ms a post, doing it before the first
 * answer kept a 10,000-post site down for minutes after an upgrade. Each slice hands the posts it
 * indexed to `indexed`, inside its transaction: the site's search files showing them are re-rendered
 * in the engine's background lane. Post writes meanwhile index themselves (fts.ts `searchIndexer`).
 */

/** Posts per slice: a slice holds SQLite's write lock for about this many times 17 ms. */
const SLICE_POSTS = 10

export type CatchUpState = 'waiting' | 'running' | 'done' | 'stopped' | 'failed'

/** What `/healthz` shows under `data.search`. */
export interface CatchUpProgress {
  state: CatchUpState
  /** Posts found stale at start and not indexed yet. */
  pending: number
  indexed: number
}

export interface CatchUpDeps {
  db: Db
  log: Logger
  /** Called inside each slice's transaction with the posts it indexed. */
  indexed(tx: Tx, ids: readonly number[]): void
  /** Resolves when the catch-up may begin (a test holds it there; default at once). */
  gate?: () => Promise<void>
}

/** Yields to the event loop: requests that arrived during a slice are answered before the next. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

export function searchCatchUp(deps: CatchUpDeps) {
  const progress: CatchUpProgress = { state: 'waiting', pending: 0, indexed: 0 }
  let stopping = false
  let stopped: () => void = () => {}
  const stopSignal = new Promise<void>((resolve) => (stopped = resolve))
  let running: Promise<void> | null = null

  async function run(): Promise<void> {
    const ids = staleSearchIds(deps.db)
    progress.pending = ids.length
    if (ids.length) await Promise.race([deps.gate?.(), stopSignal])
    progress.state = 'running'
    for (let i = 0; i < ids.length && !stopping; i += SLICE_POSTS) {
      const slice = ids.slice(i, i + SLICE_POSTS)
      deps.db.transaction(
        (tx) => {
          for (const id of slice) indexPost(tx, id)
          deps.indexed(tx, slice)
        },
        { behavior: 'immediate' },
      )
      progress.indexed += slice.length
      progress.pending -= slice.length
      await turn()
    }
    progress.state = stopping ? 'stopped' : 'done'
    if (progress.indexed) deps.log.info('search index caught up', { posts: progress.indexed, state: progress.state })
  }

  return {
    progress: (): CatchUpProgress => ({ ...progress }),
    /** Starts the catch-up in the background (once). */
    start(): void {
      running ??= run().catch((error) => {
        progress.state = 'failed'
        deps.log.error('search catch-up failed', { error: String(error) })
      })
    },
    /** Stops after the slice under way; what is left is caught up at the next start. */
    async stop(): Promise<void> {
      stopping = true
      stopped()
      await running
    },
  }
}

/**
 * The test hook of test/search/site-search.test.ts: with `FOLIO_TEST_HOLD_SEARCH_CATCH_UP=1` the
 * catch-up waits for SIGUSR2 before its first slice, so the test sees the server answer while it
 * has not begun, by design rather than by timing. Unset (always, outside tests), nothing waits.
 */
export const testGate = (): (() => Promise<void>) | undefined =>
  process.env.FOLIO_TEST_HOLD_SEARCH_CATCH_UP === '1' ? () => new Promise((resolve) => process.once('SIGUSR2', () => resolve())) : undefined
