import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { Db, Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { apiCalls, apiTokens } from '../../db/schema/index.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import type { SessionUser } from '../people/sessions.ts'
import { isScope, type Scope } from './scopes.ts'
import { hashSecret, issueToken, maskToken, parseToken, secretMatches } from './token-format.ts'

/** Who makes a call: a token, or a person signed in to the console (`session`, docs/admin.md) with their role's scopes. */
export interface Caller {
  tokenId: number | null
  name: string
  scopes: ReadonlySet<Scope>
  session?: SessionUser
}

export interface TokenListing {
  id: number
  name: string
  maskedToken: string
  scopes: Scope[]
  createTime: string
  lastUsedAt: string | null
  revoked: boolean
}

export function parseScopes(raw: string): Scope[] {
  const scopes = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ]
  if (scopes.length === 0) throw invalidField('scopes', 'at least one scope is required')
  const unknown = scopes.filter((s) => !isScope(s))
  if (unknown.length) throw invalidField('scopes', `unknown scope(s): ${unknown.join(', ')}`)
  return scopes as Scope[]
}

export function createToken(db: Queryable, name: string, scopes: Scope[]): { id: number; token: string } {
  if (!name.trim()) throw invalidField('name', 'a token needs a name')
  // Names tell tokens apart in listings, logs and the call log: one active token per name.
  const same = db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(eq(apiTokens.name, name.trim()), isNull(apiTokens.revokedAt)))
    .get()
  if (same) throw invalidField('name', `an active token is already named "${name.trim()}" (id ${same.id}); pick another name or revoke it`)
  const issued = issueToken()
  const row = db
    .insert(apiTokens)
    .values({ name: name.trim(), prefix: issued.prefix, secretHash: issued.secretHash, scopes: scopes.join(',') })
    .returning({ id: apiTokens.id })
    .get()
  return { id: row.id, token: issued.plain }
}

export function listTokens(db: Db): TokenListing[] {
  return db
    .select()
    .from(apiTokens)
    .orderBy(apiTokens.id)
    .all()
    .map((row) => ({
      id: row.id,
      name: row.name,
      maskedToken: maskToken(row.prefix),
      scopes: row.scopes.split(',') as Scope[],
      createTime: row.createdAt,
      lastUsedAt: row.lastUsedAt,
      revoked: row.revokedAt !== null,
    }))
}

export function revokeToken(db: Queryable, id: number, now: Date): void {
  const revoked = db
    .update(apiTokens)
    .set({ revokedAt: formatTime(now) })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id })
    .get()
  if (!revoked) throw new NotFound('active token', id)
}

// Compared against when the prefix is unknown, so a miss costs the same hash and compare as a hit.
const DECOY_HASH = hashSecret('decoy')

/** The statements of every token-bearing call: the caller's lookup and the call log's two writes. */
const statements = preparedOnce((db) => ({
  activeToken: db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.prefix, sql.placeholder('prefix')), isNull(apiTokens.revokedAt)))
    .prepare(),
  recordCall: db
    .insert(apiCalls)
    .values({
      tokenId: sql.placeholder('tokenId'),
      requiredScope: sql.placeholder('requiredScope'),
      method: sql.placeholder('method'),
      path: sql.placeholder('path'),
      status: sql.placeholder('status'),
      code: sql.placeholder('code'),
      message: sql.placeholder('message'),
      ip: sql.placeholder('ip'),
      durationMs: sql.placeholder('durationMs'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare(),
  touchToken: db
    .update(apiTokens)
    .set({ lastUsedAt: sql`${sql.placeholder('at')}` })
    .where(eq(apiTokens.id, sql.placeholder('id')))
    .prepare(),
}))

/** The caller behind a presented token, or null when it is malformed, unknown or revoked. */
export function authenticate(db: Db, plain: string): Caller | null {
  const parsed = parseToken(plain)
  const row = parsed ? statements(db).activeToken.get({ prefix: parsed.prefix }) : undefined
  const matches = secretMatches(parsed?.secret ?? 'decoy', row?.secretHash ?? DECOY_HASH)
  if (!row || !matches) return null
  return { tokenId: row.id, name: row.name, scopes: new Set(row.scopes.split(',') as Scope[]) }
}

export interface CallRecord {
  tokenId: number | null
  requiredScope: string | null
  method: string
  path: string
  status: number
  code: string | null
  message: string | null
  ip: string
  durationMs: number
}

/** Calls are kept this long; older rows are pruned as new ones arrive. */
export const CALL_LOG_RETENTION_DAYS = 30
const PRUNE_EVERY = 500

export function createCallLog(db: Db, clock: () => Date) {
  let sincePrune = PRUNE_EVERY
  const { recordCall, touchToken } = statements(db)
  return {
    record(call: CallRecord): void {
      const at = formatTime(clock())
      recordCall.run({ ...call, createdAt: at })
      if (call.tokenId !== null) touchToken.run({ at, id: call.tokenId })
      if (++sincePrune >= PRUNE_EVERY) {
        sincePrune = 0
        const cutoff = formatTime(new Date(clock().getTime() - CALL_LOG_RETENTION_DAYS * 86_400_000))
        db.delete(apiCalls).where(lt(apiCalls.createdAt, cutoff)).run()
      }
    },
  }
}
export type CallLog = ReturnType<typeof createCallLog>
