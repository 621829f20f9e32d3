import { mkdirSync } from 'node:fs'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { contentEtag } from '../../http/conditional.ts'
import type { Logger } from '../../shared/log.ts'
import type { Clock, Monotonic } from '../../shared/time.ts'
import { createCopier } from './copies.ts'
import { servesBesideThreads } from './engine.ts'
import { placingThread } from './placing.ts'
import { renderHere, type SliceRenderer } from './render-pool.ts'
import { createArtifactCache } from './memory.ts'
import { createArtifactMirror } from './mirror/index.ts'
import { catalogue } from './catalogue.ts'
import type { ArtifactKind } from './kinds.ts'
import { createPublisher, type EngineDeps } from './publisher.ts'
import { artifactCacheControl } from './cdn-cache.ts'
import { artifactHeaders, type artifactRead } from './serve.ts'
import { readCacheNote, writeCacheNote } from './writer.ts'
import { healthRoutes } from './health.ts'
import { createCacheUpkeep, hasArtifacts, STALE_HEADER } from './upkeep.ts'
import { recordedHash } from './integrity.ts'

export { artifactRead, staticFirst } from './serve.ts'
export type { ArtifactKind } from './kinds.ts'

/**
 * Bump when a renderer's output changes, so the next start rebuilds artifacts written by the old
 * code. 3: the API's JSON and the Markdown twins have `.gz` alone (copies-rule.ts); the rebuild
 * removes the `.br` older releases wrote beside them.
 */
const ARTIFACT_FORMAT = 3
const STAMP = '.folio-artifacts'

function writeStamp(cacheDir: string, stamp: string): void {
  mkdirSync(cacheDir, { recursive: true })
  writeCacheNote(cacheDir, STAMP, stamp)
}

type ArtifactRead = ReturnType<typeof artifactRead>

/** What a render pass changed, told inside its closing write. */
type PassHook = NonNullable<EngineDeps['onPassChanges']>

/** What a process adds to the engine beyond its configuration and its kinds. */
interface PublishingOptions {
  /** Render each change as it commits (the server), or leave its jobs to the process that does. */
  renderOnCommit: boolean
  onPassChanges?: EngineDeps['onPassChanges']
  /** File work that follows what each pass placed, before its closing write (EngineDeps `onPassPlaced`). */
  onPassPlaced?: EngineDeps['onPassPlaced']
  /** Render threads (render-pool.ts `renderThreads`); by default slices render on the render loop's thread. */
  renderer?: SliceRenderer
  /** The monotonic clock the copies throttle and the read cache's look at other renders go by; moved with the server's under a test. */
  monotonic?: Monotonic
  /** Whether the copies thread yields to the thread that answers reads (the server's, the default); a CLI command's does not. */
  servesReads?: boolean
}

/**
 * The publishing engine as `compose()` wires it: the pipeline (listener, sweeper, rebuild) over
 * the artifact kinds registered there, the in-memory artifact cache, the artifact mirror when
 * configured, and the health route. With `prepareCache` (the server, before it answers
 * anything), `start` renders the jobs left by a process that died, and a cache written by other
 * code or for other kinds' options (its stamp differs) is rebuilt whole. `onPassChanges` records
 * what each pass changed with its closing write (the cache purge); the mirror's outbox is
 * recorded there too.
 */
export function createPublishing(
  config: Config,
  db: Db,
  log: Logger,
  clock: Clock,
  kinds: readonly ArtifactKind[],
  { renderOnCommit, onPassChanges, onPassPlaced, renderer, monotonic, servesReads = true }: PublishingOptions,
) {
  const registered = catalogue(kinds)
  // Hashes this process's pass has placed on disk but not yet recorded (its closing write waits for the copies thread).
  const placing = new Map<string, string>()
  const cache = createArtifactCache(config.cacheDir, artifactHeaders(artifactCacheControl(config.cdn), registered), {
    recorded: (path) => placing.get(path) ?? recordedHash(db, path),
    budgetBytes: config.readCacheBytes,
    now: monotonic,
  })
  // With PUBLISH_TARGETS=disk,s3: the bucket follows CACHE_DIR (its worker runs in the server only).
  const mirror = createArtifactMirror(config, db, log, clock, registered)
  // What each pass changed goes to the purge outbox and the mirror's, in the pass's closing write.
  const passHooks = [onPassChanges, mirror?.artifactsChanged].filter((hook): hook is PassHook => hook !== undefined)
  const slices = renderer ?? renderHere(db, registered)
  const publisher = createPublisher(
    {
      db,
      cache,
      copies: createCopier(config.cacheDir, log, { background: servesReads }),
      renderer: slices,
      placer: servesBesideThreads({ renderOnCommit, renderer: slices }) ? placingThread(config.cacheDir, log) : undefined,
      placing,
      log,
      clock,
      monotonic,
      cacheDir: config.cacheDir,
      renderOnCommit,
      onPassChanges: passHooks.length ? (changes) => passHooks.forEach((hook) => hook(changes)) : undefined,
      onPassPlaced,
    },
    registered,
  )
  async function start(prepareCache: boolean): Promise<void> {
    if (!prepareCache) return
    const stamp = contentEtag(JSON.stringify({ format: ARTIFACT_FORMAT, kinds: kinds.map((kind) => [kind.name, kind.stamp()]) }))
    const unclean = upkeep.begin()
    const rebuild = async () => {
      const stats = await publisher.rebuild()
      writeStamp(config.cacheDir, stamp)
      log.info('artifacts rebuilt at start', { ...stats })
    }
    if (readCacheNote(config.cacheDir, STAMP) === stamp) {
      const stats = await publisher.repair()
      if (stats.rendered) log.info('artifacts repaired at start', { ...stats })
      // A start after a crash, and a daily round: every file read back against the manifest.
      upkeep.scheduleVerify(unclean)
      // An invalidated cache that has files keeps serving them (stale, marked) while it is rebuilt; only an empty one is waited for.
    } else if (hasArtifacts(config.cacheDir, registered.tops)) upkeep.rebuildInBackground(rebuild)
    else await rebuild()
  }
  const upkeep = createCacheUpkeep(config.cacheDir, publisher, log)
  /** Artifact answers while a rebuild replaces the files they come from carry `X-Folio-Artifacts: stale`. */
  const marked =
    (read: ArtifactRead): ArtifactRead =>
    (...args) => {
      const response = read(...args)
      if (response && upkeep.stale()) response.headers.set(STALE_HEADER, 'stale')
      return response
    }
  const health = () => ({ ...publisher.health(), stale: upkeep.stale() })
  /** `/healthz` sections beside the render backlog: the mirror's here, others added by the composition root. */
  const healthSections: Record<string, () => object> = mirror ? { mirror: mirror.worker.health } : {}
  return {
    publisher,
    mirror,
    cache,
    canonical: registered.canonical,
    routes: [healthRoutes(health, healthSections)],
    healthSections,
    start,
    upkeep,
    marked,
  }
}
