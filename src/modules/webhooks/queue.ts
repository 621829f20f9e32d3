import { and, asc, eq, gt, inArray, lte, or, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { webhookDeliveries as d, webhookReceivers as r } from '../../db/schema/index.ts'
import type { ReceiverKind } from '../../db/schema/webhooks.ts'

/** A delivery the worker holds until `leaseUntil`, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number
  receiverId: number
  url: string
  secret: string
  /** `purge`, `indexnow`, `websub`: a configured endpoint, sent its own body (deliver.ts) rather than the signed event. */
  kind: ReceiverKind
  event: string
  payload: string
  /** Attempts recorded before this one. */
  attempts: number
}

/** Due now: waiting and scheduled, or claimed by a worker whose lease ran out (it died mid-delivery). */
const due = (now: number) =>
  or(and(eq(d.status, 'pending'), lte(d.nextAttemptAt, now)), and(eq(d.status, 'sending'), lte(d.leaseUntil, now)))

/**
 * Claims up to `limit` due deliveries of enabled receivers in one conditional UPDATE, so two
 * workers never hold the same row at once; a worker killed while holding rows loses them when
 * the lease expires, and the next worker sends them again (at least once).
 */
export function claimDue(db: Queryable, now: number, limit: number, leaseMs: number): ClaimedDelivery[] {
  // Read first: an idle poll (most of them) then ends without a write statement. The update
  // re-checks `due`, so a row another process claimed in between is not claimed twice.
  const candidates = db
    .select({ id: d.id })
    .from(d)
    .innerJoin(r, eq(r.id, d.receiverId))
    .where(and(due(now), eq(r.enabled, true)))
    .orderBy(asc(d.nextAttemptAt), asc(d.id))
    .limit(limit)
    .all()
  if (!candidates.length) return []
  const claimed = db
    .update(d)
    .set({ status: 'sending', leaseUntil: now + leaseMs })
    .where(
      and(
        inArray(
          d.id,
          candidates.map((c) => c.id),
        ),
        due(now),
      ),
    )
    .returning({ id: d.id, receiverId: d.receiverId, event: d.event, payload: d.payload, attempts: d.attempts })
    .all()
  if (!claimed.length) return []
  const receivers = new Map(
    db
      .select({ id: r.id, url: r.url, secret: r.secret, kind: r.kind })
      .from(r)
      .where(
        inArray(
          r.id,
          claimed.map((c) => c.receiverId),
        ),
      )
      .all()
      .map((row) => [row.id, row]),
  )
  return claimed.flatMap((c) => {
    const receiver = receivers.get(c.receiverId)
    return receiver ? [{ ...c, url: receiver.url, secret: receiver.secret, kind: receiver.kind }] : []
  })
}

/** The earliest time (epoch ms) a delivery of an enabled receiver becomes due, or null when none waits. */
export function nextDueAt(db: Queryable): number | null {
  const row = db
    .select({ at: sql<number | null>`min(case when ${d.status} = 'pending' then ${d.nextAttemptAt} else ${d.leaseUntil} end)` })
    .from(d)
    .innerJoin(r, eq(r.id, d.receiverId))
    .where(and(inArray(d.status, ['pending', 'sending']), eq(r.enabled, true)))
    .get()
  return row?.at ?? null
}

/** Waiting deliveries due after `latest`: only a wall clock that has since stepped back sets one (shared/clock-steps.ts). */
const aheadOf = (latest: number) => and(eq(d.status, 'pending'), gt(d.nextAttemptAt, latest))

/** How many waiting deliveries are due after `latest` (what `/healthz` shows as due further ahead than the retry policy allows). */
export const countAhead = (db: Queryable, latest: number): number =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(d)
    .where(aheadOf(latest))
    .get()?.n ?? 0

/**
 * Waiting deliveries due after `latest` made due at `now`; how many. A read first, so an idle
 * poll writes nothing.
 */
export function rebaseAhead(db: Queryable, now: number, latest: number): number {
  const ahead = aheadOf(latest)
  if (!db.select({ id: d.id }).from(d).where(ahead).limit(1).get()) return 0
  return db.update(d).set({ nextAttemptAt: now }).where(ahead).returning({ id: d.id }).all().length
}
