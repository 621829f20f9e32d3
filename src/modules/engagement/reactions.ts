import { and, eq, gte, sql, sum } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/client.ts'
import { claps, posts } from '../../db/schema/index.ts'
import { IdempotencyKeyReused } from '../../shared/errors.ts'
import { engagementOf } from './engagement.ts'
import type { EngagementRes, ReactionReq } from './model.ts'
import { ENGAGEMENT_LIMITS } from './terms.ts'
import { engageablePost } from './repo.ts'

/** Without an Idempotency-Key, the same request from the same clientKey this soon after is a duplicate. */
export const DUPLICATE_WINDOW_MS = 10_000

/**
 * Whether this request was already counted: by its Idempotency-Key when it has one (for good),
 * else by an identical accepted request of the same clientKey inside the duplicate window. The
 * HTTP shell's 24-hour key layer (http/idempotency.ts) answers retries from the same address
 * before they get here; this rule is what still holds after 24 hours, or when the reader's
 * address changed between attempts, and it answers a reused key the same way (422).
 */
function alreadyCounted(tx: Tx, postId: number, req: ReactionReq, idempotencyKey: string, now: number): boolean {
  const same = and(eq(claps.postId, postId), eq(claps.clientKey, req.clientKey))
  if (idempotencyKey) {
    const earlier = tx
      .select({ count: claps.count })
      .from(claps)
      .where(and(same, eq(claps.idempotencyKey, idempotencyKey)))
      .get()
    if (earlier && earlier.count !== req.count) throw new IdempotencyKeyReused()
    return !!earlier
  }
  return !!tx
    .select({ id: claps.id })
    .from(claps)
    .where(and(same, eq(claps.idempotencyKey, ''), eq(claps.count, req.count), gte(claps.acceptedAt, now - DUPLICATE_WINDOW_MS)))
    .get()
}

/**
 * `POST posts/{id}/reactions`: adds claps once per request. The check and the write run in one
 * write-locked (immediate) transaction, so parallel duplicates are serialized and only the first
 * counts; the unique index on (post, clientKey, Idempotency-Key) is the backstop. Claps beyond
 * the per-clientKey cap are dropped quietly, as clap buttons do.
 */
export async function addReaction(ctx: Ctx, postId: number, req: ReactionReq, idempotencyKey: string): Promise<EngagementRes> {
  await ctx.changes.write(ctx.db, (tx, record) => {
    engageablePost(tx, postId)
    const now = ctx.clock().getTime()
    if (alreadyCounted(tx, postId, req, idempotencyKey, now)) return
    const given = Number(
      tx
        .select({ n: sum(claps.added) })
        .from(claps)
        .where(and(eq(claps.postId, postId), eq(claps.clientKey, req.clientKey)))
        .get()?.n ?? 0,
    )
    const added = Math.min(req.count, ENGAGEMENT_LIMITS.clapsPerClient - given)
    if (added <= 0) return
    tx.insert(claps).values({ postId, clientKey: req.clientKey, idempotencyKey, count: req.count, added, acceptedAt: now }).run()
    tx.update(posts)
      .set({ clapCount: sql`${posts.clapCount} + ${added}` })
      .where(eq(posts.id, postId))
      .run()
    record({ kind: 'engagement', postId })
  })
  return engagementOf(ctx.db, postId)
}
