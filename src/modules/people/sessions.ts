import { randomBytes } from 'node:crypto'
import { and, desc, eq, isNull, lt, or } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { sessions, users } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { hashSecret } from '../tokens/token-format.ts'
import type { Role } from './roles.ts'

/** A session ends after this long without a request (idle) ... */
export const SESSION_IDLE_HOURS = 12
/** ... and this long after sign-in whatever happens (absolute): the owner signs in again. */
export const SESSION_ABSOLUTE_DAYS = 7
/** `last_seen_at` is written at most this often, so reading pages does not write on every call. */
const TOUCH_EVERY_MS = 60_000

export interface SessionUser {
  sessionId: number
  userId: number
  name: string
  email: string
  role: Role
}

const hoursAgo = (now: Date, hours: number) => formatTime(new Date(now.getTime() - hours * 3_600_000))

/** A new session for the account: the cookie's secret (returned once) and its row (hash only). */
export function startSession(db: Queryable, userId: number, where: { ip: string; userAgent: string }, now: Date): string {
  const secret = randomBytes(32).toString('base64url')
  const at = formatTime(now)
  db.insert(sessions)
    .values({
      userId,
      secretHash: hashSecret(secret),
      ip: where.ip,
      userAgent: where.userAgent.slice(0, 300),
      createdAt: at,
      lastSeenAt: at,
    })
    .run()
  return secret
}

/**
 * The live session a cookie's secret names, or null: unknown, idle too long, too old, or its
 * account disabled. The secret is 256 random bits looked up by its SHA-256, so the lookup's
 * timing says nothing about any other secret.
 */
export function sessionOf(db: Queryable, secret: string, now: Date): SessionUser | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(secret)) return null
  const row = db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.secretHash, hashSecret(secret)), isNull(users.disabledAt)))
    .get()
  if (!row) return null
  const { session, user } = row
  if (session.lastSeenAt < hoursAgo(now, SESSION_IDLE_HOURS) || session.createdAt < hoursAgo(now, SESSION_ABSOLUTE_DAYS * 24)) {
    db.delete(sessions).where(eq(sessions.id, session.id)).run()
    return null
  }
  if (now.getTime() - Date.parse(session.lastSeenAt.replace(' ', 'T') + 'Z') >= TOUCH_EVERY_MS)
    db.update(sessions)
      .set({ lastSeenAt: formatTime(now) })
      .where(eq(sessions.id, session.id))
      .run()
  return { sessionId: session.id, userId: user.id, name: user.name, email: user.email, role: user.role as Role }
}

export const endSession = (db: Queryable, sessionId: number): void => void db.delete(sessions).where(eq(sessions.id, sessionId)).run()

/** Sign out everywhere: every session of the account, this one included. */
export const endAllSessions = (db: Queryable, userId: number): void => void db.delete(sessions).where(eq(sessions.userId, userId)).run()

/** One of the account's own sessions, ended from the list. */
export function endOwnSession(db: Queryable, userId: number, sessionId: number): void {
  const ended = db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id })
    .get()
  if (!ended) throw new NotFound('session', sessionId)
}

export const listSessions = (db: Queryable, userId: number) =>
  db
    .select({
      id: sessions.id,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      createTime: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt))
    .all()

/** Sessions past either lifetime, removed (they are refused anyway; this keeps the table small). */
export function pruneSessions(db: Queryable, now: Date): void {
  db.delete(sessions)
    .where(
      or(lt(sessions.lastSeenAt, hoursAgo(now, SESSION_IDLE_HOURS)), lt(sessions.createdAt, hoursAgo(now, SESSION_ABSOLUTE_DAYS * 24))),
    )
    .run()
}
