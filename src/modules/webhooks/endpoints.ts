import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { ConfigError } from '../../config.ts'
import type { Ctx } from '../../context.ts'
import { webhookReceivers } from '../../db/schema/index.ts'
import type { ReceiverKind } from '../../db/schema/webhooks.ts'
import { formatTime } from '../../shared/time.ts'
import { CACHE_PURGE, INDEXNOW_SUBMIT, WEBSUB_PUBLISH } from './events.ts'
import { cancelPending, receiverUrlFault } from './receivers.ts'

/** One configured endpoint: a receiver of one event whose row follows a setting. */
interface Endpoint {
  kind: Exclude<ReceiverKind, 'webhook'>
  /** The setting that turns it on, named in errors and in the reason it was disabled. */
  setting: string
  url: string | null
  event: string
}

/**
 * The endpoints the configuration names: the purge endpoint (PURGE_URL, `blog.cache.purge`),
 * IndexNow (INDEXNOW_KEY, sent to INDEXNOW_ENDPOINT) and the WebSub hub (WEBSUB_HUB). Each is a
 * receiver of its own kind, so its calls are durable deliveries with the webhooks' retries, log
 * and worker.
 */
const endpointsOf = (config: Ctx['config']): Endpoint[] => [
  { kind: 'purge', setting: 'PURGE_URL', url: config.purge.url, event: CACHE_PURGE },
  {
    kind: 'indexnow',
    setting: config.indexNow.key ? 'INDEXNOW_ENDPOINT' : 'INDEXNOW_KEY',
    url: config.indexNow.key ? config.indexNow.endpoint : null,
    event: INDEXNOW_SUBMIT,
  },
  { kind: 'websub', setting: 'WEBSUB_HUB', url: config.webSubHub, event: WEBSUB_PUBLISH },
]

/**
 * At the server's start each endpoint's row is brought in line with its setting: made or updated
 * (and enabled) when it is set, disabled when it is not, its waiting deliveries ended. The URLs
 * follow the receivers' URL rules.
 */
export function syncEndpoints(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>): void {
  for (const endpoint of endpointsOf(ctx.config)) syncEndpoint(ctx, endpoint)
}

function syncEndpoint(ctx: Pick<Ctx, 'config' | 'clock' | 'db'>, { kind, setting, url, event }: Endpoint): void {
  const fault = url === null ? null : receiverUrlFault(url, ctx.config.webhookAllowPrivate)
  if (fault) throw new ConfigError(setting, fault)
  const unset = `${setting} is not set`
  const now = formatTime(ctx.clock())
  ctx.db.transaction(
    (tx) => {
      const row = tx.select().from(webhookReceivers).where(eq(webhookReceivers.kind, kind)).get()
      if (url === null) {
        if (!row?.enabled) return
        tx.update(webhookReceivers)
          .set({ enabled: false, disabledReason: unset, updatedAt: now })
          .where(eq(webhookReceivers.id, row.id))
          .run()
        cancelPending(tx, row.id, unset, now)
        return
      }
      if (!row) {
        // Calls to these endpoints are not signed; the column wants a secret.
        const secret = randomBytes(24).toString('hex')
        tx.insert(webhookReceivers).values({ kind, url, secret, events: event, enabled: true, createdAt: now, updatedAt: now }).run()
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
