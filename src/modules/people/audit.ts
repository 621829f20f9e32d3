import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { auditLog, users } from '../../db/schema/index.ts'
import { containing } from '../../shared/like.ts'
import { formatTime } from '../../shared/time.ts'

export interface AuditEntry {
  userId: number | null
  /** What was done: `sign-in`, `user.create`, or the method and path of a console call. */
  action: string
  target?: string
  status?: number
  ip: string
}

/** Audit rows are kept this long; older ones are pruned as new ones arrive. */
export const AUDIT_RETENTION_DAYS = 365

export function recordAudit(db: Queryable, entry: AuditEntry, now: Date): void {
  db.insert(auditLog)
    .values({ ...entry, target: entry.target ?? '', status: entry.status ?? 200, createdAt: formatTime(now) })
    .run()
}

export function pruneAudit(db: Queryable, now: Date): void {
  db.delete(auditLog)
    .where(lt(auditLog.createdAt, formatTime(new Date(now.getTime() - AUDIT_RETENTION_DAYS * 86_400_000))))
    .run()
}

export interface AuditQuery {
  userId?: number
  /** Part of the action (`sign-in`, `tags/save`), matched literally. */
  action?: string
  /** The address the call came from, exactly. */
  ip?: string
  /** Rows recorded at or after this time (`YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, UTC). */
  since?: string
  before?: number
  size: number
}

/** Newest first; `before` pages by id. */
export function listAudit(db: Queryable, query: AuditQuery) {
  const where: SQL[] = []
  if (query.userId) where.push(eq(auditLog.userId, query.userId))
  if (query.action) where.push(sql`${auditLog.action} like ${containing(query.action)} escape '\\'`)
  if (query.ip) where.push(eq(auditLog.ip, query.ip))
  if (query.since) where.push(gte(auditLog.createdAt, query.since))
  if (query.before) where.push(lt(auditLog.id, query.before))
  return db
    .select({
      id: auditLog.id,
      userId: auditLog.userId,
      userName: users.name,
      action: auditLog.action,
      target: auditLog.target,
      status: auditLog.status,
      ip: auditLog.ip,
      createTime: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(query.size)
    .all()
}
