import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { parseSubnet, type Subnet } from './shared/ip.ts'
import { DEFAULT_MAX_IMAGE_PIXELS } from './modules/media/structure.ts'

/** The operator contract's configuration (operations.md), parsed once at start and frozen. */
/** IDEMPOTENCY_BUDGET_BYTES's default: the stored answers' bodies, all callers together. */
export const DEFAULT_IDEMPOTENCY_BUDGET_BYTES = 32 * 1024 * 1024

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

/** A bad value stops the start with one line naming the variable (operations.md). */
export class ConfigError extends Error {
  constructor(variable: string, reason: string) {
    super(`${variable}: ${reason}`)
  }
}

type Env = Record<string, string | undefined>

const text = (env: Env, name: string, fallback: string): string => {
  const value = env[name]?.trim()
  return value ? value : fallback
}

const integer = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

const httpUrl = (env: Env, name: string, fallback: string): string => {
  const value = text(env, name, fallback)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, `expected an http(s) URL, got "${value}"`)
  return value.replace(/\/+$/, '')
}

const oneOf = <T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T => {
  const value = text(env, name, fallback)
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${value}"`)
  return value as T
}

/**
 * CSP_REPORT_URL: an absolute http(s) URL, or a path on this site (`/csp-reports`, Folio's own
 * receiver). It goes into a header as it is, so nothing that could end the directive is allowed.
 */
function cspReportUrl(env: Env): string | null {
  const value = text(env, 'CSP_REPORT_URL', '')
  if (!value) return null
  if (/[\s;,'"]/.test(value)) throw new ConfigError('CSP_REPORT_URL', `must hold no space, quote, comma or semicolon, got "${value}"`)
  if (/^\/(?!\/)/.test(value)) return value
  return httpUrl(env, 'CSP_REPORT_URL', '')
}

/** A comma-separated list of exact origins, each an http(s) scheme and host with no path. */
const origins = (env: Env, name: string): string[] =>
  text(env, name, '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((origin) => {
      let url: URL | null = null
      try {
        url = new URL(origin)
      } catch {}
      if (!url || !/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, ''))
        throw new ConfigError(name, `expected origins like https://app.example.org, got "${origin}"`)
      return url.origin
    })

const MAX_RETRY_DELAY_MS = 7 * 24 * 3600 * 1000

/** Seconds by default (the operator contract); an `ms` suffix allows the sub-second delays tests need. */
const retryDelays = (env: Env): number[] => {
  const name = 'WEBHOOK_RETRY_DELAYS'
  const raw = text(env, name, '300,600,900,900,900')
  const delays = raw.split(',').map((part) => /^(\d+)(ms|s)?$/.exec(part.trim()))
  const ms = delays.map((match) => (match ? Number(match[1]) * (match[2] === 'ms' ? 1 : 1000) : NaN))
  if (ms.length > 5 || ms.some((value) => !(value >= 1 && value <= MAX_RETRY_DELAY_MS))) {
    throw new ConfigError(
      name,
      `expected up to 5 comma-separated delays in seconds (or with an ms suffix), each up to 7 days, got "${raw}"`,
    )
  }
  return ms
}

/** `Name: value`, one HTTP header (a purge API's key); the name a token, the value printable. */
function header(env: Env, name: string): { name: string; value: string } | null {
  const raw = text(env, name, '')
  if (!raw) return null
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)$/.exec(raw)
  if (!match) throw new ConfigError(name, 'expected one header as "Name: value", e.g. "Authorization: Bearer <token>"')
  return { name: match[1]!, value: match[2]! }
}

/** An IndexNow key: 8 to 128 letters, digits and dashes (indexnow.org), served as `/{key}.txt`. */
function indexNowKey(env: Env, name: string): string | null {
  const raw = text(env, name, '')
  if (raw && !/^[A-Za-z0-9-]{8,128}$/.test(raw)) throw new ConfigError(name, 'expected 8 to 128 letters, digits or dashes')
  return raw || null
}

/** Comma-separated addresses or CIDR ranges. */
const subnets = (env: Env, name: string, fallback: string): Subnet[] =>
  text(env, name, fallback)
    .split(',')
    .map((part) => {
      const subnet = parseSubnet(part)
      if (!subnet) throw new ConfigError(name, `expected comma-separated IP addresses or CIDR ranges, got "${part.trim()}"`)
      return subnet
    })

/**
 * One S3 store's settings under a name prefix (`S3_` for media, `ARTIFACTS_S3_` for the artifact
 * mirror): endpoint and keys are required when `requiredWhen` names the setting that asks for it.
 */
function s3Settings(env: Env, prefix: string, bucket: string, requiredWhen: string | null): S3Settings {
  const s3 = {
    endpoint: text(env, `${prefix}ENDPOINT`, ''),
    accessKey: text(env, `${prefix}ACCESS_KEY`, ''),
    secretKey: text(env, `${prefix}SECRET_KEY`, ''),
    bucket: text(env, `${prefix}BUCKET`, bucket),
    region: text(env, `${prefix}REGION`, 'us-east-1'),
  }
  if (requiredWhen) {
    for (const [name, value] of [
      ['ENDPOINT', s3.endpoint],
      ['ACCESS_KEY', s3.accessKey],
      ['SECRET_KEY', s3.secretKey],
    ] as const) {
      if (!value) throw new ConfigError(`${prefix}${name}`, `required when ${requiredWhen}`)
    }
    httpUrl(env, `${prefix}ENDPOINT`, s3.endpoint)
    // S3's bucket naming rules, so a typo stops the start instead of every upload.
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(s3.bucket))
      throw new ConfigError(`${prefix}BUCKET`, `expected an S3 bucket name, got "${s3.bucket}"`)
  }
  return Object.freeze(s3)
}

/** `disk` always comes first: the bucket mirrors what CACHE_DIR holds. */
function publishTargets(env: Env): PublishTarget[] {
  const name = 'PUBLISH_TARGETS'
  const raw = text(env, name, 'disk')
  const targets = [...new Set(raw.split(',').map((part) => part.trim()))]
  if (!targets.every((t) => (PUBLISH_TARGETS as readonly string[]).includes(t)) || !targets.includes('disk'))
    throw new ConfigError(name, `expected disk or disk,s3, got "${raw}"`)
  return PUBLISH_TARGETS.filter((t) => targets.includes(t))
}

/** A key prefix inside the bucket: empty, or path segments ending in `/` (added when missing). */
function keyPrefix(env: Env, name: string): string {
  const raw = text(env, name, '')
  if (!raw) return ''
  const prefix = raw.endsWith('/') ? raw : `${raw}/`
  if (!/^([A-Za-z0-9._-]+\/)+$/.test(prefix) || /(^|\/)\.\.?\//.test(prefix))
    throw new ConfigError(name, `expected path segments of letters, digits, ".", "_", "-" (like "site/"), got "${raw}"`)
  return prefix
}

export function loadConfig(env: Env = process.env): Config {
  const siteUrl = httpUrl(env, 'SITE_URL', 'http://localhost:3000')
  const mediaStore = oneOf(env, 'MEDIA_STORE', ['local', 's3'] as const, 'local')
  const targets = publishTargets(env)
  const artifactsS3 = s3Settings(env, 'ARTIFACTS_S3_', 'folio-artifacts', targets.includes('s3') ? 'PUBLISH_TARGETS includes s3' : null)
  // SEO check threads: one on a one- or two-core box; never more than leaves a core to the request thread.
  const spareCores = Math.max(1, availableParallelism() - 1)
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
    seoWorkers: integer(env, 'SEO_WORKERS', Math.min(2, spareCores), 0, spareCores),
    renderWorkers: integer(env, 'RENDER_WORKERS', Math.min(2, spareCores), 0, 16),
    // INDEXNOW_ENDPOINT and WEBSUB_HUB are checked against the webhook rules when the server starts, like PURGE_URL.
    indexNow: Object.freeze({
      key: indexNowKey(env, 'INDEXNOW_KEY'),
      endpoint: text(env, 'INDEXNOW_ENDPOINT', 'https://api.indexnow.org/indexnow'),
    }),
    webSubHub: text(env, 'WEBSUB_HUB', '') || null,
  })
}
