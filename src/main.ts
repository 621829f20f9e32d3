import { join } from 'node:path'
import { version } from '../package.json'
import { ConfigError, loadConfig, type Config } from './config.ts'
import type { Ctx } from './context.ts'
import { migrateDatabase, openDatabase } from './db/client.ts'
import { createApp } from './http/app.ts'
import { withCors } from './http/cors.ts'
import { cspReporting } from './http/csp-report.ts'
import { createIdempotencyStore } from './http/idempotency-store.ts'
import { listen } from './http/listen.ts'
import { createRateLimiter } from './http/rate-limit.ts'
import { base64Length, createFetch } from './http/server.ts'
import { LIMITS } from './http/schema.ts'
import { openMediaStore } from './modules/media/index.ts'
import { mediaUploader } from './modules/media/routes.ts'
import { variantJobs } from './modules/media/variant-jobs.ts'
import { MCP_PATH } from './modules/mcp/routes.ts'
import type { McpServices } from './modules/mcp/tools.ts'
import { checkRunner } from './modules/posts/check-tasks.ts'
import { postEventLog } from './modules/posts/event-log.ts'
import { previewSecret } from './modules/posts/preview.ts'
import { importRunner } from './modules/import/runs.ts'
import { createPeople } from './modules/people/index.ts'
import { setupCode, setupUrl } from './modules/people/setup.ts'
import { scheduleUpkeep } from './modules/posts/schedule.ts'
import { startScheduler } from './modules/posts/scheduler.ts'
import { webhookHealth } from './modules/webhooks/health.ts'
import { artifactRead, createPublishing, staticFirst } from './modules/publishing/index.ts'
import { readQuery } from './modules/artifacts/paths.ts'
import { openapiJson } from './http/openapi/document.ts'
import { siteLastRoute } from './modules/site/serve.ts'
import { withRedirects } from './modules/redirects/serve.ts'
import { searchIndexer } from './modules/search/fts.ts'
import { searchCatchUp, testGate } from './modules/search/catch-up.ts'
import { segmentFilesOf } from './modules/site-search/index.tsx'
import { composeKinds } from './kinds.ts'
import { featureRoutes } from './routes.ts'
import { authenticate, createCallLog } from './modules/tokens/tokens.ts'
import { webhookOutbox } from './modules/webhooks/enqueue.ts'
import { passOutbox } from './modules/webhooks/pass-outbox.ts'
import { redirectFiles } from './modules/redirects/files.ts'
import { syncEndpoints } from './modules/webhooks/endpoints.ts'
import { superviseWorker } from './modules/webhooks/supervisor.ts'
import { lockDataDir, usableDir } from './operations/lock.ts'
import { checkMediaUrl } from './operations/media-check.ts'
import { localUrl, removeControlNote, serverRebuildControl } from './operations/rebuild-control.ts'
import { ChangeFeed } from './shared/changes.ts'
import { StartupError } from './shared/errors.ts'
import { batchedLines, createLogger, type Logger } from './shared/log.ts'
import { offsetClock, offsetMonotonic } from './shared/time.ts'

/** The largest JSON body: a post whose body is at its limit, escaped, plus its other fields. */
const MAX_JSON_BYTES = 4 * LIMITS.contentHtml + 1024 * 1024

/**
 * Everything Folio is made of, wired once: config -> db -> services -> http -> worker. Background
 * workers, the cache's start-up repair (`prepareCache`) and the MEDIA_URL check run only for the
 * server (`start`), never for a CLI command: only `rebuild` and `restore` render, on purpose.
 */
export async function compose(
  config: Config,
  options: { workers?: boolean; prepareCache?: boolean; renderOnCommit?: boolean; log?: Logger; clockOffset?: Float64Array } = {},
) {
  const log = options.log ?? createLogger(config.logLevel)
  // The system's clock; moved ahead only by a test's own entry point (test/support/clocked-main.ts).
  const clock = offsetClock(options.clockOffset)
  const monotonic = offsetMonotonic(options.clockOffset)
  const dbFile = join(config.dataDir, 'folio.db')
  const db = openDatabase(dbFile, { replication: config.dbReplication })
  if (migrateDatabase(db) === 'baselined') log.warn('database made by an earlier 0000_init brought to today’s schema', { dbFile })
  const changes = new ChangeFeed()
  const mediaStore = await openMediaStore(
    config.mediaStore === 's3' ? { kind: 's3', ...config.s3 } : { kind: 'local', dataDir: config.dataDir },
  )
  if (options.workers && 'objectUrl' in mediaStore) await checkMediaUrl(mediaStore, config.mediaUrl, config.mediaUrlCheck, log)
  // SEO checks: the server runs them on Worker threads, so a large body never holds up other requests.
  const seo = checkRunner(options.workers ? config.seoWorkers : 0, log)
  const ctx: Ctx = {
    config,
    db,
    log,
    clock,
    changes,
    mediaExists: (key) => mediaStore.exists(key),
    seo,
  }
  // Webhooks: deliveries are queued inside each change's transaction; a supervised Bun Worker sends them.
  // The server keeps the configured endpoints' receivers (PURGE_URL, INDEXNOW_KEY, WEBSUB_HUB) in line before anything renders.
  if (options.workers) syncEndpoints(ctx)
  const webhookWorker =
    options.workers && config.webhookWorker === 'embedded' ? superviseWorker(config, dbFile, log, undefined, options.clockOffset) : null
  const wakeWebhooks = () => webhookWorker?.wake()

  // Publishing: artifacts re-rendered after every public change, served before the app answers;
  // each render pass queues the purge of the URLs it changed (`blog.cache.purge`, PURGE_URL) and
  // tells IndexNow and the WebSub hub of its changed pages and feeds (docs/discovery.md).
  // Only the server renders on commit (unless asked); other processes leave the recorded jobs to it.
  const renderOnCommit = options.renderOnCommit ?? options.workers ?? false
  // The artifact kinds, registered once: the engine renders what they plan (the OpenAPI document is
  // set on `blog` below); render threads (RENDER_WORKERS) make the same kinds (src/kinds.ts).
  const { blog, kinds, renderer } = await composeKinds(config, db, dbFile, log, options.workers ?? false)
  const publishing = createPublishing(config, db, log, clock, kinds, {
    renderOnCommit,
    onPassChanges: passOutbox(ctx, wakeWebhooks),
    // Each pass also brings the old URLs' redirect files in line with the shard indexes it placed.
    onPassPlaced: redirectFiles(config.cacheDir, db),
    renderer,
    monotonic,
    servesReads: options.workers ?? false,
  })
  changes.subscribe(publishing.publisher.listener)
  // `cli rebuild` beside the server is done by the server, in its background lane (docs/operations.md).
  const rebuildControl = options.workers ? serverRebuildControl(publishing, log) : null
  if (rebuildControl) publishing.healthSections.rebuild = rebuildControl.health
  publishing.healthSections.webhooks = webhookHealth(db, config, clock, webhookWorker)
  changes.subscribe(webhookOutbox(ctx, wakeWebhooks))
  changes.subscribe(postEventLog(log))
  // Search: the FTS5 index follows every post write in its transaction; the server catches up on the
  // rest in the background once it answers, the site's search files re-rendered in the background lane (docs/search.md).
  changes.subscribe(searchIndexer)
  const search = searchCatchUp({
    db,
    log,
    gate: testGate(),
    indexed: (tx, ids) => publishing.publisher.markBackground(tx, segmentFilesOf(ids)),
  })
  publishing.healthSections.search = search.progress

  // Schedules: every post change keeps them true; the server's scheduler carries out due ones (catch-up at start).
  changes.subscribe(scheduleUpkeep)
  // Made on the first start, so every preview token signed later verifies after a restart.
  previewSecret(db)

  // Responsive variants, made at upload; the server finishes any a crash cut short (docs/media.md).
  const mediaVariants = variantJobs({ db, store: mediaStore, maxPixels: config.maxImagePixels, log, changes })
  const uploadMedia = mediaUploader(ctx, mediaStore, mediaVariants)
  const mcp: McpServices = { ctx, uploadMedia }
  // The admin console's sign-in, sessions and people (docs/admin.md).
  const people = createPeople(ctx)
  // Imports started from the console run in the server's background (docs/import-export.md).
  const imports = importRunner({ ctx, mediaStore, mediaVariants, publisher: publishing.publisher })
  if (options.workers) imports.recover()

  const features = featureRoutes({
    ctx,
    mediaStore,
    uploadMedia,
    mcp,
    mcpBodyBytes: base64Length(config.maxUploadBytes) + MAX_JSON_BYTES,
    blog,
    publishingRoutes: publishing.routes,
    wakeWebhooks,
    peopleRoutes: people.routes,
    imports,
    rebuildControl,
    serves: options.workers ?? false,
  })
  const app = createApp(
    log,
    features,
    siteLastRoute({
      db,
      siteUrl: config.siteUrl,
      sitemapShardSize: config.sitemapShardSize,
      mediaUrl: config.mediaUrl,
      webSubHub: config.webSubHub,
    }),
  )
  // The OpenAPI document describes the routes just mounted; the artifacts (it among them) are rendered before the first answer.
  blog.openapi = openapiJson(app)
  await publishing.start(options.prepareCache ?? false)
  if (options.workers) publishing.publisher.start()
  if (options.workers) publishing.mirror?.worker.start()
  const scheduler = options.workers ? startScheduler(ctx) : null
  // Uploads whose variants a crash cut short (or an import left): made now; each lands with the changes re-rendering what shows it.
  if (options.workers) void mediaVariants.run(true).catch((error) => log.error('media variants at start failed', { error: String(error) }))
  const fetch = createFetch({
    app: withCors(withRedirects(staticFirst(app, publishing.cache, publishing.canonical, readQuery), config.cacheDir), config.corsOrigins),
    readArtifact: publishing.marked(artifactRead(publishing.cache, readQuery)),
    authenticate: (token) => authenticate(db, token),
    sessionCaller: people.sessionCaller,
    audit: people.audit,
    rateLimiter: createRateLimiter(config.rateLimitPerMinute),
    cspReporting: cspReporting(config.cspReportUrl),
    callLog: createCallLog(db, clock),
    idempotency: createIdempotencyStore(db, clock, config.idempotencyBudgetBytes),
    log,
    maxJsonBytes: MAX_JSON_BYTES,
    maxUploadBytes: config.maxUploadBytes,
    base64UploadPaths: [MCP_PATH],
    trustedProxies: config.trustProxy ? config.trustedProxies : null,
  })
  const close = async () => {
    await search.stop()
    await imports.close()
    await scheduler?.stop()
    await mediaVariants.close()
    await rebuildControl?.stop()
    await publishing.upkeep.stop()
    await publishing.publisher.stop()
    await publishing.mirror?.worker.stop()
    await webhookWorker?.stop()
    await seo.close()
    db.$client.close()
  }
  return {
    ctx,
    fetch,
    publisher: publishing.publisher,
    mirror: publishing.mirror,
    mcp,
    mediaStore,
    mediaVariants,
    search,
    rebuildControl,
    close,
  }
}

/** The server (`npm start`). `clockOffset`: what test/support/clocked-main.ts passes to move its time; never set otherwise. */
export async function start(options: { clockOffset?: Float64Array } = {}): Promise<void> {
  try {
    const config = loadConfig()
    usableDir('CACHE_DIR', config.cacheDir)
    const lock = lockDataDir(config.dataDir)
    const server = listen(config, MAX_JSON_BYTES)
    // Log lines (an access line per request among them) leave in batches; shutdown writes the rest.
    const lines = batchedLines()
    const service = await compose(config, {
      workers: true,
      prepareCache: true,
      log: createLogger(config.logLevel, lines),
      clockOffset: options.clockOffset,
    })
    server.reload({ fetch: service.fetch })
    // Where a `cli rebuild` finds this server (rebuild-control.ts), until it stops.
    if (service.rebuildControl) service.rebuildControl.note(config.dataDir, config.cacheDir, localUrl(server.hostname!, server.port!))
    // Answering first: the search catch-up runs in the background (docs/search.md).
    service.search.start()
    service.ctx.log.info('listening', {
      url: `http://${server.hostname}:${server.port}`,
      version,
      siteUrl: config.siteUrl,
      mediaStore: config.mediaStore,
      mediaUrl: config.mediaUrl,
      dataDir: config.dataDir,
      cacheDir: config.cacheDir,
    })
    // First run: the one link that can make the owner's account (docs/admin.md, "First run").
    const code = setupCode(service.ctx.db)
    if (code)
      service.ctx.log.warn('no account yet: open the setup URL to create the owner', {
        setupUrl: setupUrl(`http://${server.hostname}:${server.port}`, code),
      })
    // Whoever waits for this line (a supervisor, a test) gets it now, not with the next batch.
    void lines.flush()
    let stopping = false
    const stop = async (signal: string) => {
      if (stopping) return
      stopping = true
      service.ctx.log.info('stopping', { signal })
      // Stops accepting at once; the promise settles when the requests in flight have been answered.
      await server.stop()
      removeControlNote(config.dataDir)
      await service.close()
      lock.release()
      service.ctx.log.info('stopped')
      await lines.flush()
      process.exit(0)
    }
    process.on('SIGTERM', () => void stop('SIGTERM'))
    process.on('SIGINT', () => void stop('SIGINT'))
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof StartupError)) throw error
    console.error(`folio: ${error instanceof ConfigError ? 'invalid configuration: ' : ''}${error.message}`)
    process.exit(1)
  }
}

if (import.meta.main) await start()
