import { join } from 'node:path'
import type { AnyElysia } from 'elysia'
import { ConfigError, loadConfig, type Config } from './config.ts'
import type { Ctx } from './context.ts'
import { migrateDatabase, openDatabase } from './db/client.ts'
import { createApp } from './http/app.ts'
import { createRateLimiter } from './http/rate-limit.ts'
import { base64Length, createFetch } from './http/server.ts'
import { LIMITS } from './http/schema.ts'
import { authorRoutes } from './modules/authors/routes.ts'
import { engagementRoutes, moderationRoutes } from './modules/engagement/routes.ts'
import { openMediaStore } from './modules/media/index.ts'
import { localMediaRoutes, mediaUploader, mediaUploadRoutes } from './modules/media/routes.ts'
import { MCP_PATH, mcpRoutes } from './modules/mcp/routes.ts'
import type { McpServices } from './modules/mcp/tools.ts'
import { previewSecret } from './modules/posts/preview.ts'
import { previewRoutes, publicPostRoutes, writePostRoutes } from './modules/posts/routes.ts'
import { scheduleUpkeep } from './modules/posts/schedule.ts'
import { startScheduler } from './modules/posts/scheduler.ts'
import { resourceRoutes } from './modules/resources/routes.ts'
import { createPublishing, staticFirst } from './modules/publishing/index.ts'
import { settingsRoutes } from './modules/settings/routes.ts'
import { taxonomyRoutes } from './modules/taxonomy/routes.ts'
import { authenticate, createCallLog } from './modules/tokens/tokens.ts'
import { webhookOutbox } from './modules/webhooks/enqueue.ts'
import { webhookRoutes } from './modules/webhooks/routes.ts'
import { superviseWorker } from './modules/webhooks/supervisor.ts'
import { ChangeFeed } from './shared/changes.ts'
import { createLogger, type Logger } from './shared/log.ts'
import { systemClock } from './shared/time.ts'

/** The largest JSON body: a post whose body is at its limit, escaped, plus its other fields. */
const MAX_JSON_BYTES = 4 * LIMITS.contentHtml + 1024 * 1024

/**
 * Everything Folio is made of, wired once: config -> db -> services -> http -> worker. Background
 * workers run only for the server (`start`), never for a CLI command.
 */
export async function compose(config: Config, options: { workers?: boolean; log?: Logger } = {}) {
  const log = options.log ?? createLogger(config.logLevel)
  const dbFile = join(config.dataDir, 'folio.db')
  const db = openDatabase(dbFile)
  migrateDatabase(db)
  const changes = new ChangeFeed()
  const mediaStore = await openMediaStore(
    config.mediaStore === 's3' ? { kind: 's3', ...config.s3 } : { kind: 'local', dataDir: config.dataDir },
  )
  const ctx: Ctx = {
    config,
    db,
    log,
    clock: systemClock,
    changes,
    mediaExists: (key) => mediaStore.exists(key),
  }
  // Publishing: artifacts re-rendered after every public change, served before the app answers.
  const publishing = await createPublishing(config, db, log, systemClock)
  changes.subscribe(publishing.publisher.listener)
  if (options.workers) publishing.publisher.start()

  // Webhooks: deliveries are queued inside each change's transaction; a supervised Bun Worker sends them.
  const webhookWorker = options.workers && config.webhookWorker === 'embedded' ? superviseWorker(config, dbFile, log) : null
  const wakeWebhooks = () => webhookWorker?.wake()
  changes.subscribe(webhookOutbox(ctx, wakeWebhooks))

  // Schedules: every post change keeps them true; the server's scheduler carries out due ones (catch-up at start).
  changes.subscribe(scheduleUpkeep)
  const scheduler = options.workers ? startScheduler(ctx) : null
  // Made on the first start, so every preview token signed later verifies after a restart.
  previewSecret(db)

  const uploadMedia = mediaUploader(ctx, mediaStore)
  const mcp: McpServices = { ctx, uploadMedia }

  const features: AnyElysia[] = [
    taxonomyRoutes(ctx),
    authorRoutes(ctx),
    publicPostRoutes(ctx),
    writePostRoutes(ctx),
    previewRoutes(ctx),
    settingsRoutes(ctx),
    engagementRoutes(ctx),
    moderationRoutes(ctx),
    resourceRoutes(ctx),
    mediaUploadRoutes(uploadMedia),
    ...('serve' in mediaStore ? [localMediaRoutes(ctx, mediaStore)] : []),
    publishing.routes,
    webhookRoutes(ctx, wakeWebhooks),
    mcpRoutes(mcp),
  ]
  const fetch = createFetch({
    app: staticFirst(createApp(log, features), config.cacheDir),
    authenticate: (token) => authenticate(db, token),
    rateLimiter: createRateLimiter(config.rateLimitPerMinute),
    callLog: createCallLog(db, systemClock),
    log,
    maxJsonBytes: MAX_JSON_BYTES,
    maxUploadBytes: config.maxUploadBytes,
    base64UploadPaths: [MCP_PATH],
    trustProxy: config.trustProxy,
  })
  const close = async () => {
    await scheduler?.stop()
    publishing.publisher.stop()
    await webhookWorker?.stop()
    db.$client.close()
  }
  return { ctx, fetch, publisher: publishing.publisher, mcp, close }
}

async function start(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(`folio: invalid configuration: ${error.message}`)
    process.exit(1)
  }
  const service = await compose(config, { workers: true })
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    fetch: service.fetch,
    // The shell refuses oversized bodies in the envelope; this is the hard stop behind it.
    maxRequestBodySize: base64Length(config.maxUploadBytes) + MAX_JSON_BYTES + 2 * 1024 * 1024,
  })
  service.ctx.log.info('listening', { url: `http://${server.hostname}:${server.port}`, dataDir: config.dataDir, cacheDir: config.cacheDir })
  const stop = () => {
    service.ctx.log.info('stopping')
    void server
      .stop()
      .then(service.close)
      .then(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

if (import.meta.main) await start()
