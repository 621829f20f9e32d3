import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { MIN_BUDGET_MB, memoryBudget } from './operations/memory-budget.ts'
import {
  type Config,
  DB_REPLICATIONS,
  DEFAULT_IDEMPOTENCY_BUDGET_BYTES,
  DEFAULT_MAX_IMAGE_PIXELS,
  LOG_LEVELS,
  PURGE_FORMATS,
} from './config-model.ts'
import {
  cspReportUrl,
  type Env,
  header,
  httpUrl,
  indexNowKey,
  integer,
  keyPrefix,
  oneOf,
  origins,
  publishTargets,
  retryDelays,
  s3Settings,
  subnets,
  text,
} from './config-values.ts'

// The configuration's shape and its value readers live beside this file (config-model.ts,
// config-values.ts); everything is still imported from here.
export * from './config-model.ts'
export { ConfigError } from './config-values.ts'

export function loadConfig(env: Env = process.env): Config {
  const siteUrl = httpUrl(env, 'SITE_URL', 'http://localhost:3000')
  const mediaStore = oneOf(env, 'MEDIA_STORE', ['local', 's3'] as const, 'local')
  const targets = publishTargets(env)
  const artifactsS3 = s3Settings(env, 'ARTIFACTS_S3_', 'folio-artifacts', targets.includes('s3') ? 'PUBLISH_TARGETS includes s3' : null)
  // SEO check threads: one on a one- or two-core box; never more than leaves a core to the request thread.
  const spareCores = Math.max(1, availableParallelism() - 1)
  const memoryBudgetMb = integer(env, 'MEMORY_BUDGET_MB', 160, MIN_BUDGET_MB, 1024 * 1024)
  const budget = memoryBudget(memoryBudgetMb, spareCores)
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST', '127.0.0.1'),
    dataDir: resolve(text(env, 'DATA_DIR', './data')),
    cacheDir: resolve(text(env, 'CACHE_DIR', './content-cache')),
    siteUrl,
    mediaUrl: httpUrl(env, 'MEDIA_URL', `${siteUrl}/media`),
    mediaStore,
    mediaUrlCheck: oneOf(env, 'MEDIA_URL_CHECK', ['refuse', 'warn', 'off'] as const, 'refuse'),
    s3: s3Settings(env, 'S3_', 'folio-media', mediaStore === 's3' ? 'MEDIA_STORE=s3' : null),
    publishTargets: Object.freeze(targets),
    artifactsS3: Object.freeze({ ...artifactsS3, prefix: keyPrefix(env, 'ARTIFACTS_S3_PREFIX') }),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 120, 1, 1_000_000),
    webhookRetryDelaysMs: Object.freeze(retryDelays(env)),
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 10, 60_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    webhookWorker: oneOf(env, 'WEBHOOK_WORKER', ['embedded', 'off'] as const, 'embedded'),
    webhookAllowPrivate: oneOf(env, 'WEBHOOK_ALLOW_PRIVATE', ['0', '1'] as const, '0') === '1',
    importAllowPrivate: oneOf(env, 'IMPORT_ALLOW_PRIVATE', ['0', '1'] as const, '0') === '1',
    maxUploadBytes: integer(env, 'MAX_UPLOAD_BYTES', 10 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    idempotencyBudgetBytes: integer(env, 'IDEMPOTENCY_BUDGET_BYTES', DEFAULT_IDEMPOTENCY_BUDGET_BYTES, 0, 2 ** 40),
    maxImagePixels: integer(env, 'MAX_IMAGE_PIXELS', DEFAULT_MAX_IMAGE_PIXELS, 1, 1_000_000_000),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    engagementRefreshSeconds: integer(env, 'ENGAGEMENT_REFRESH_SECONDS', 60, 1, 86_400),
    trustProxy: oneOf(env, 'TRUST_PROXY', ['0', '1'] as const, '0') === '1',
    trustedProxies: Object.freeze(subnets(env, 'TRUSTED_PROXIES', '127.0.0.1,::1')),
    // 50,000 URLs is the sitemap protocol's limit for one file (sitemaps.org) and the default of
    // operations.md; a render pass re-renders the shard of each post it publishes, so a large site
    // that publishes often is faster with smaller shards (docs/publishing.md).
    sitemapShardSize: integer(env, 'SITEMAP_SHARD_SIZE', 50_000, 1, 50_000),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    cspReportUrl: cspReportUrl(env),
    revisionsKeep: integer(env, 'REVISIONS_KEEP', 50, 1, 10_000),
    dbReplication: oneOf(env, 'DB_REPLICATION', DB_REPLICATIONS, 'off'),
    // The Caddyfile repeats these defaults (`{$CDN_MAX_AGE:60}`): test/publishing/cdn.test.ts checks both agree.
    cdn: Object.freeze({
      maxAge: integer(env, 'CDN_MAX_AGE', 60, 0, 31_536_000),
      staleWhileRevalidate: integer(env, 'CDN_STALE_WHILE_REVALIDATE', 60, 0, 31_536_000),
    }),
    // PURGE_URL is checked against the webhook rules (shared link rule, public host) when the server starts.
    purge: Object.freeze({
      url: text(env, 'PURGE_URL', '') || null,
      format: oneOf(env, 'PURGE_FORMAT', PURGE_FORMATS, 'generic'),
      authHeader: header(env, 'PURGE_AUTH_HEADER'),
    }),
    seoWorkers: integer(env, 'SEO_WORKERS', budget.seoWorkers, 0, spareCores),
    renderWorkers: integer(env, 'RENDER_WORKERS', budget.renderWorkers, 0, 16),
    memoryBudgetMb,
    readCacheBytes: budget.readCacheBytes,
    // INDEXNOW_ENDPOINT and WEBSUB_HUB are checked against the webhook rules when the server starts, like PURGE_URL.
    indexNow: Object.freeze({
      key: indexNowKey(env, 'INDEXNOW_KEY'),
      endpoint: text(env, 'INDEXNOW_ENDPOINT', 'https://api.indexnow.org/indexnow'),
    }),
    webSubHub: text(env, 'WEBSUB_HUB', '') || null,
  })
}
