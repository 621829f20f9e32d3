import { InvalidMediaKey } from './errors.ts'

/** Full lowercase hex SHA-256 of the bytes: the identity of an upload. */
export function contentHash(bytes: Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
}

/** Hex characters of the hash kept in the key: 128 bits, far beyond any collision risk here. */
export const KEY_HASH_CHARS = 32

/**
 * `YYYY/MM/<first 32 hex of sha256>.<ext>`, the month in UTC. The month only spreads files
 * over folders; the identity is the hash, so callers look the hash up first (see MediaIndex)
 * and reuse the key of the first upload instead of calling this again in a later month.
 */
export function keyFor(hash: string, ext: string, now: Date): string {
  if (!/^[0-9a-f]{32,64}$/.test(hash)) throw new Error(`not a hex sha256: ${hash}`)
  if (!/^[a-z0-9]+$/.test(ext)) throw new Error(`bad extension: ${ext}`)
  const year = String(now.getUTCFullYear()).padStart(4, '0')
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `${year}/${month}/${hash.slice(0, KEY_HASH_CHARS)}.${ext}`
}

/**
 * A key is safe to join to a folder or a URL when every segment starts with a letter or
 * digit and holds only [A-Za-z0-9._-]. That refuses '..', '.', empty segments, absolute
 * paths, backslashes, NUL, percent escapes and dot-files (our temp files start with a dot,
 * so a half-written upload can never be served).
 */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/
export const MAX_KEY_LENGTH = 512

export const isValidMediaKey = (key: string): boolean => key.length > 0 && key.length <= MAX_KEY_LENGTH && SAFE_KEY.test(key)

export function assertValidMediaKey(key: string): string {
  if (!isValidMediaKey(key)) throw new InvalidMediaKey(key)
  return key
}

/** The public URL of a key: `MEDIA_URL/<key>`. */
export function mediaUrlFor(mediaUrl: string, key: string): string {
  return `${mediaUrl.replace(/\/+$/, '')}/${assertValidMediaKey(key)}`
}

/**
 * The key behind a URL this service handed out, or undefined when the URL is not under
 * MEDIA_URL (an external image) or names no valid key. Used by the SEO check to ask the
 * store whether an uploaded image still exists.
 */
export function keyFromMediaUrl(mediaUrl: string, url: string): string | undefined {
  const base = `${mediaUrl.replace(/\/+$/, '')}/`
  if (!url.startsWith(base)) return undefined
  const key = url.slice(base.length).split(/[?#]/, 1)[0] ?? ''
  return isValidMediaKey(key) ? key : undefined
}
