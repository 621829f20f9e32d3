import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { apiCalls, apiTokens } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import { containing } from '../../shared/like.ts'
import { createToken, revokeToken } from './tokens.ts'
import type { Scope } from './scopes.ts'

/**
 * Rotation: a new secret under the same name and scopes, the old token revoked at once in the
 * same transaction (no grace period: a script picks the new one up from the answer, and a
 * leaked token stops working the moment it is rotated).
 */
export function rotateToken(db: Queryable, id: number, now: Date): { id: number; token: string } {
  const old = db.select().from(apiTokens).where(eq(apiTokens.id, id)).get()
  if (!old || old.revokedAt !== null) throw new NotFound('active token', id)
  revokeToken(db, id, now)
  return createToken(db, old.name, old.scopes.split(',') as Scope[])
}

export interface CallLogQuery {
  tokenId: number
  /** `ok`: answered 0000 (or 2xx without a code); `failed`: anything else. */
  outcome?: 'ok' | 'failed'
  method?: string
  path?: string
  /** Newest first; pages by id. */
  before?: number
  size: number
}

/** A token's calls (spec §5.9): time, method, path, scope, status, code, message, address, duration. */
export function tokenCalls(db: Queryable, query: CallLogQuery) {
  const where: (SQL | undefined)[] = [eq(apiCalls.tokenId, query.tokenId)]
  const succeeded = sql`(${apiCalls.code} = '0000' or (${apiCalls.code} is null and ${apiCalls.status} < 300))`
  if (query.outcome === 'ok') where.push(succeeded)
  if (query.outcome === 'failed') where.push(sql`not ${succeeded}`)
  if (query.method) where.push(eq(apiCalls.method, query.method.toUpperCase()))
  if (query.path) where.push(sql`${apiCalls.path} like ${containing(query.path)} escape '\\'`)
  if (query.before) where.push(lt(apiCalls.id, query.before))
  return db
    .select({
      id: apiCalls.id,
      time: apiCalls.createdAt,
      method: apiCalls.method,
      path: apiCalls.path,
      scope: apiCalls.requiredScope,
      status: apiCalls.status,
      code: apiCalls.code,
      message: apiCalls.message,
      ip: apiCalls.ip,
      durationMs: apiCalls.durationMs,
    })
    .from(apiCalls)
    .where(and(...where))
    .orderBy(desc(apiCalls.id))
    .limit(query.size)
    .all()
}
