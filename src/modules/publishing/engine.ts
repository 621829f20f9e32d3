import type { Db } from '../../db/client.ts'
import type { Logger } from '../../shared/log.ts'
import type { Clock, Monotonic } from '../../shared/time.ts'
import type { Copier } from './copies.ts'
import type { Placer } from './placing.ts'
import type { SliceRenderer } from './render-pool.ts'
import type { ArtifactChange } from './kinds.ts'
import type { ArtifactCache } from './memory.ts'

// A pass's changes are described where the artifacts are (kinds.ts); the engine's hooks take them.
export type { ArtifactChange } from './kinds.ts'

/** What the engine is given (publisher, pass and rebuild share it), and what it reports. */
export interface EngineDeps {
  db: Db
  log: Logger
  clock: Clock
  /** What the copies throttle measures its span on (destinations.ts); `performance.now()` by default. */
  monotonic?: Monotonic
  cacheDir: string
  cache: ArtifactCache
  /** Where artifacts' precompressed copies are written (copies.ts); ended by `stop`. */
  copies: Copier
  /** Where a pass's slices are rendered (render-pool.ts): this thread or render threads; ended by `stop`. */
  renderer: SliceRenderer
  /** Where a pass's main files are written (placing.ts): this thread by default, else ended by `stop`. */
  placer?: Placer
  /**
   * Files a pass has put in place and not yet recorded in the manifest, with their hashes: the read
   * cache vouches for them meanwhile, so a request answered before the pass's closing write (which
   * waits for the copies) reads the file, not the API's live answer with other validators.
   */
  placing?: Map<string, string>
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
  /**
   * Runs once a pass has placed its files and before its closing write records them, outside any
   * transaction, with the changes `onPassChanges` is told of: file work that follows artifacts
   * (the redirect files of an import's old URLs, redirects/files.ts) without holding SQLite's
   * write lock. A pass killed before its closing write keeps its jobs, and runs this again.
   */
  onPassPlaced?: (changes: readonly ArtifactChange[]) => void
}

/**
 * The server with render threads: it answers reads and publishes while its passes render on other
 * threads, so its main files are written off the serving thread too (placing.ts) and a background
 * pass's slices are kept small (pass.ts BACKGROUND_SLICE). A CLI command answers nothing meanwhile.
 */
export const servesBesideThreads = (deps: Pick<EngineDeps, 'renderOnCommit' | 'renderer'>): boolean =>
  deps.renderOnCommit && deps.renderer.threaded

/** What a pass or a render failure left for `/healthz`, and the totals since start (coalescing shows there). */
export interface EngineStatus {
  lastError: { at: string; path: string; error: string } | null
  /** `locked`: tries that found CACHE_DIR's render lock held by another process (a `cli rebuild`) and were put off. */
  totals: { passes: number; rendered: number; rebased: number; locked: number }
  /** The background lane's jobs rendered since it was last found empty: a site-wide re-render's progress. */
  background: { rendered: number }
}
