import { parseSubnet, type Subnet } from './shared/ip.ts'
import { PUBLISH_TARGETS, type PublishTarget, type S3Settings } from './config-model.ts'

/** How each kind of configuration value is read from the environment (config.ts), one line naming the variable when it is wrong. */
/** A bad value stops the start with one line naming the variable (operations.md). */
export class ConfigError extends Error {
  constructor(variable: string, reason: string) {
    super(`${variable}: ${reason}`)
  }
}

export type Env = Record<string, string | undefined>

export const text = (env: Env, name: string, fallback: string): string => {
  const value = env[name]?.trim()
  return value ? value : fallback
}

export const integer = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

export const httpUrl = (env: Env, name: string, fallback: string): string => {
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

export const oneOf = <T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T => {
  const value = text(env, name, fallback)
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${value}"`)
  return value as T
}

/**
 * CSP_REPORT_URL: an absolute http(s) URL, or a path on this site (`/csp-reports`, Folio's own
 * receiver). It goes into a header as it is, so nothing that could end the directive is allowed.
 */
export function cspReportUrl(env: Env): string | null {
  const value = text(env, 'CSP_REPORT_URL', '')
  if (!value) return null
  if (/[\s;,'"]/.test(value)) throw new ConfigError('CSP_REPORT_URL', `must hold no space, quote, comma or semicolon, got "${value}"`)
  if (/^\/(?!\/)/.test(value)) return value
  return httpUrl(env, 'CSP_REPORT_URL', '')
}

/** A comma-separated list of exact origins, each an http(s) scheme and host with no path. */
export const origins = (env: Env, name: string): string[] =>
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
export const retryDelays = (env: Env): number[] => {
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
export function header(env: Env, name: string): { name: string; value: string } | null {
  const raw = text(env, name, '')
  if (!raw) return null
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)$/.exec(raw)
  if (!match) throw new ConfigError(name, 'expected one header as "Name: value", e.g. "Authorization: Bearer <token>"')
  return { name: match[1]!, value: match[2]! }
}

/** An IndexNow key: 8 to 128 letters, digits and dashes (indexnow.org), served as `/{key}.txt`. */
export function indexNowKey(env: Env, name: string): string | null {
  const raw = text(env, name, '')
  if (raw && !/^[A-Za-z0-9-]{8,128}$/.test(raw)) throw new ConfigError(name, 'expected 8 to 128 letters, digits or dashes')
  return raw || null
}

/** Comma-separated addresses or CIDR ranges. */
export const subnets = (env: Env, name: string, fallback: string): Subnet[] =>
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
export function s3Settings(env: Env, prefix: string, bucket: string, requiredWhen: string | null): S3Settings {
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
export function publishTargets(env: Env): PublishTarget[] {
  const name = 'PUBLISH_TARGETS'
  const raw = text(env, name, 'disk')
  const targets = [...new Set(raw.split(',').map((part) => part.trim()))]
  if (!targets.every((t) => (PUBLISH_TARGETS as readonly string[]).includes(t)) || !targets.includes('disk'))
    throw new ConfigError(name, `expected disk or disk,s3, got "${raw}"`)
  return PUBLISH_TARGETS.filter((t) => targets.includes(t))
}

/** A key prefix inside the bucket: empty, or path segments ending in `/` (added when missing). */
export function keyPrefix(env: Env, name: string): string {
  const raw = text(env, name, '')
  if (!raw) return ''
  const prefix = raw.endsWith('/') ? raw : `${raw}/`
  if (!/^([A-Za-z0-9._-]+\/)+$/.test(prefix) || /(^|\/)\.\.?\//.test(prefix))
    throw new ConfigError(name, `expected path segments of letters, digits, ".", "_", "-" (like "site/"), got "${raw}"`)
  return prefix
}
