import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * A token is `folio_<prefix>_<secret>`: the prefix is a public handle used to find the row, the
 * secret is only ever stored as its SHA-256 and compared in constant time. Secret scanners can
 * match the `folio_` shape.
 */
const TOKEN_SHAPE = /^folio_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/

export interface IssuedToken {
  plain: string
  prefix: string
  secretHash: string
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex')

export function issueToken(): IssuedToken {
  const prefix = randomBytes(8).toString('hex').slice(0, 12)
  const secret = randomBytes(32).toString('base64url')
  return { plain: `folio_${prefix}_${secret}`, prefix, secretHash: hashSecret(secret) }
}

export function parseToken(plain: string): { prefix: string; secret: string } | null {
  const match = TOKEN_SHAPE.exec(plain)
  return match ? { prefix: match[1]!, secret: match[2]! } : null
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return presented.length === stored.length && timingSafeEqual(presented, stored)
}

export const maskToken = (prefix: string): string => `folio_${prefix}_${'*'.repeat(8)}`
