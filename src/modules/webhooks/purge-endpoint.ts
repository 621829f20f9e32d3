import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { ConfigError, type Config } from '../../config.ts'
import type { Ctx } from '../../context.ts'
import { webhookReceivers } from '../../db/schema/index.ts'
import { formatTime } from '../../shared/time.ts'
import { CACHE_PURGE, type CachePurgePayload } from './events.ts'
import { cancelPending, receiverUrlFault } from './receivers.ts'

const UNSET = 'PURGE_URL is not set'

/**
 * The purge endpoint is a receiver of `blog.cache.purge` (kind `purge`), so its calls are durable
 * deliveries with the webhooks' retries, log and worker. At the server's start this row is brought
 * in line with PURGE_URL: made or updated (and enabled) when it is set, disabled when it is not,
 * its waiting deliveries ended. PURGE_URL follows the receivers' URL rules.
 */
export function syncPurgeEndpoint(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>): void {
  const { url } = ctx.config.purge
  const fault = url === null ? null : receiverUrlFault(url, ctx.config.webhookAllowPrivate)
  if (fault) throw new ConfigError('PURGE_URL', fault)
  const now = formatTime(ctx.clock())
  ctx.db.transaction(
    (tx) => {
      const row = tx.select().from(webhookReceivers).where(eq(webhookReceivers.kind, 'purge')).get()
      if (url === null) {
        if (!row?.enabled) return
        tx.update(webhookReceivers)
          .set({ enabled: false, disabledReason: UNSET, updatedAt: now })
          .where(eq(webhookReceivers.id, row.id))
          .run()
        cancelPending(tx, row.id, UNSET, now)
        return
      }
      if (!row) {
        // Calls to the endpoint are not signed (PURGE_AUTH_HEADER authenticates them); the column wants a secret.
        const secret = randomBytes(24).toString('hex')
        tx.insert(webhookReceivers)
          .values({ kind: 'purge', url, secret, events: CACHE_PURGE, enabled: true, createdAt: now, updatedAt: now })
          .run()
        return
      }
      if (row.url !== url || !row.enabled)
        tx.update(webhookReceivers)
          .set({ url, enabled: true, disabledReason: null, updatedAt: now })
          .where(eq(webhookReceivers.id, row.id))
          .run()
    },
    { behavior: 'immediate' },
  )
}

/**
 * The body and headers of one purge-endpoint call from a `blog.cache.purge` payload: `generic`
 * sends `{"urls": [...]}`, `cloudflare` the purge-by-URL body `{"files": [...]}`; the configured
 * auth header rides along (docs/beyond-one-box.md shows CDN set-ups).
 */
export function purgeRequest(
  payload: string,
  purge: Pick<Config['purge'], 'format' | 'authHeader'>,
): { body: string; headers: Record<string, string> } {
  const { urls } = JSON.parse(payload) as CachePurgePayload
  const body = JSON.stringify(purge.format === 'cloudflare' ? { files: urls } : { urls })
  return { body, headers: purge.authHeader ? { [purge.authHeader.name]: purge.authHeader.value } : {} }
}
