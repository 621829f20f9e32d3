import type { Subnet } from './shared/ip.ts'

/** The operator contract's configuration (operations.md), parsed once at start and frozen. */
/** IDEMPOTENCY_BUDGET_BYTES's default: the stored answers' bodies, all callers together. */
export const DEFAULT_IDEMPOTENCY_BUDGET_BYTES = 32 * 1024 * 1024
/** MAX_IMAGE_PIXELS's default: 40 megapixels, more than any camera a blog's images come from. */
export const DEFAULT_MAX_IMAGE_PIXELS = 40_000_000

export interface Config {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly cacheDir: string
  readonly siteUrl: string
  readonly mediaUrl: string
  readonly mediaStore: 'local' | 's3'
  /** With S3: whether the start refuses, warns about, or skips a MEDIA_URL that does not serve uploads. */
  readonly mediaUrlCheck: 'refuse' | 'warn' | 'off'
  readonly s3: S3Settings
  /** Where render passes publish artifacts: always CACHE_DIR (`disk`), plus an S3 bucket with `s3`. */
  readonly publishTargets: readonly PublishTarget[]
  /** The artifact mirror's bucket (`ARTIFACTS_S3_*`), used with `PUBLISH_TARGETS=disk,s3`. */
  readonly artifactsS3: S3Settings & { prefix: string }
  readonly rateLimitPerMinute: number
  /** Behind Caddy (or another proxy on loopback) the client address comes from X-Forwarded-For. */
  readonly trustProxy: boolean
  /** The proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES); only read with trustProxy. */
  readonly trustedProxies: readonly Subnet[]
  /** Milliseconds before each retry of a failed delivery; its length is the retry count. */
  readonly webhookRetryDelaysMs: readonly number[]
  readonly webhookPollMs: number
  readonly webhookTimeoutMs: number
  /** `embedded`: `npm start` runs the delivery worker; `off`: it runs apart (worker-main.ts). */
  readonly webhookWorker: 'embedded' | 'off'
  /** Receivers on loopback, private, link-local or unspecified addresses are refused unless this is set. */
  readonly webhookAllowPrivate: boolean
  /** `IMPORT_ALLOW_PRIVATE=1`: `import --media fetch` may download from loopback and private addresses (tests, a LAN). */
  readonly importAllowPrivate: boolean
  readonly maxUploadBytes: number
  /** IDEMPOTENCY_BUDGET_BYTES: stored Idempotency-Key answers, all callers together; the oldest go first. */
  readonly idempotencyBudgetBytes: number
  /** MAX_IMAGE_PIXELS: width x height an uploaded image may declare. */
  readonly maxImagePixels: number
  readonly logLevel: LogLevel
  /** Seconds a post's pre-rendered claps/comment counts may lag behind the live engagement endpoint. */
  readonly engagementRefreshSeconds: number
  /** URLs per sitemap shard: a publish re-renders its shard, so this bounds the sitemap work of a render pass. */
  readonly sitemapShardSize: number
  /** Origins (scheme://host[:port]) whose browsers may call the anonymous endpoints (CORS). */
  readonly corsOrigins: readonly string[]
  /** CSP_REPORT_URL: where browsers report Content-Security-Policy violations (`report-uri`), or null. */
  readonly cspReportUrl: string | null
  /** Revisions kept per post; older ones are dropped as new saves come in (docs/agents.md). */
  readonly revisionsKeep: number
  /** `litestream`: Litestream replicates folio.db and runs its checkpoints (docs/beyond-one-box.md). */
  readonly dbReplication: DbReplication
  /** How long a CDN (a shared cache) keeps an artifact, and serves it stale while refetching (docs/publishing.md). */
  readonly cdn: { maxAge: number; staleWhileRevalidate: number }
  /** Where each pass's purge list is POSTed (docs/beyond-one-box.md), or null; the auth header rides along. */
  readonly purge: { url: string | null; format: PurgeFormat; authHeader: { name: string; value: string } | null }
  /** Worker threads that run SEO checks off the request thread (SEO_WORKERS); 0 runs them on it. */
  readonly seoWorkers: number
  /** Threads that render artifacts off the thread that answers reads (RENDER_WORKERS); 0 renders on it. */
  readonly renderWorkers: number
  /** MEMORY_BUDGET_MB: the server's memory, split into the read cache and pool threads (operations/memory-budget.ts, docs/memory.md). */
  readonly memoryBudgetMb: number
  /** The in-memory read cache's bytes, from MEMORY_BUDGET_MB. */
  readonly readCacheBytes: number
  /** Search engines told of each pass's changed pages (docs/discovery.md): off while `key` is null. */
  readonly indexNow: { key: string | null; endpoint: string }
  /** The WebSub hub the site's feeds name and ping after a change (docs/discovery.md), or null. */
  readonly webSubHub: string | null
}

export const PURGE_FORMATS = ['generic', 'cloudflare'] as const
export type PurgeFormat = (typeof PURGE_FORMATS)[number]

export interface S3Settings {
  endpoint: string
  accessKey: string
  secretKey: string
  bucket: string
  region: string
}

export const PUBLISH_TARGETS = ['disk', 's3'] as const
export type PublishTarget = (typeof PUBLISH_TARGETS)[number]

export const DB_REPLICATIONS = ['off', 'litestream'] as const
export type DbReplication = (typeof DB_REPLICATIONS)[number]

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
