import { options, positiveId, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import { listDeliveries, redeliver } from './modules/webhooks/delivery-log.ts'
import { attemptsLabel } from './modules/webhooks/retry-policy.ts'
import { pingReceiver, rotateReceiverSecret } from './modules/webhooks/receiver-actions.ts'
import { listReceivers, saveReceiver } from './modules/webhooks/receivers.ts'
import { DELIVERY_STATUSES, type DeliveryStatus } from './modules/webhooks/terms.ts'

/** `cli webhook …` (docs/webhooks.md): receivers and their deliveries, for scripts. */
export const webhookCommands: Record<string, CliCommand<CliService>> = {
  'webhook add': ({ ctx }, args) => {
    const { values } = options(args, {
      url: { type: 'string' },
      secret: { type: 'string' },
      events: { type: 'string' },
      disabled: { type: 'boolean' },
    })
    if (!values.url || !values.secret || !values.events) throw new UsageError('webhook add needs --url, --secret and --events')
    const receiver = saveReceiver(ctx, {
      url: values.url,
      secret: values.secret,
      events: values.events.split(','),
      enabled: !values.disabled,
    })
    console.log(`added webhook receiver ${receiver.id}`)
  },
  'webhook list': ({ ctx }, args) => {
    options(args, {})
    console.log(['id', 'url', 'events', 'state', 'secret'].join('\t'))
    for (const r of listReceivers(ctx.db)) {
      const state = r.enabled ? 'enabled' : `disabled${r.disabledReason ? ` (${r.disabledReason})` : ''}`
      console.log([r.id, r.url, r.events.join(','), state, `secret ${r.secretFingerprint}`].join('\t'))
    }
  },
  'webhook deliveries': ({ ctx }, args) => {
    const { values } = options(args, { status: { type: 'string' }, page: { type: 'string' } })
    const status = values.status as DeliveryStatus | undefined
    if (status !== undefined && !DELIVERY_STATUSES.includes(status))
      throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`)
    if (values.page !== undefined && !/^[1-9]\d{0,5}$/.test(values.page))
      throw new UsageError(`--page must be a whole number from 1, got "${values.page}"`)
    const page = listDeliveries(ctx, { status, current: Number(values.page ?? 1), size: 100 })
    console.log(['id', 'status', 'event', 'receiver', 'attempts', 'last answer', 'failure', 'next attempt', 'created'].join('\t'))
    for (const d of page.records) {
      const last = d.lastHttpStatus === null ? '-' : `HTTP ${d.lastHttpStatus}`
      console.log(
        [
          d.id,
          d.status,
          d.event,
          d.receiverUrl,
          attemptsLabel(d.attempts, d.maxAttempts),
          last,
          d.failureReason ?? '',
          d.nextAttemptAt ?? '',
          d.createTime,
        ].join('\t'),
      )
    }
    console.error(`page ${page.current}: ${page.records.length} of ${page.total} deliveries`)
  },
  'webhook ping': ({ ctx }, args) => {
    console.log(`queued test ping delivery ${pingReceiver(ctx, positiveId(args[0])).deliveryId} (blog.ping; see webhook deliveries)`)
  },
  'webhook rotate-secret': ({ ctx }, args) => {
    // The new secret alone on stdout, like a token: shown this once.
    console.log(rotateReceiverSecret(ctx, positiveId(args[0])).secret)
    if (process.stderr.isTTY) console.error('the new signing secret is shown only this once: give it to the receiver now')
  },
  'webhook redeliver': ({ ctx }, args) => {
    const queued = redeliver(ctx, positiveId(args[0]))
    console.log(`queued delivery ${queued.id} (redelivery of ${queued.redeliveryOf})`)
  },
}
