import { t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { IdParam, paging } from '../../http/schema.ts'
import { deliveryDetail, listDeliveries, redeliver } from './delivery-log.ts'
import { DeliveryLogQuery, WebhookSaveReq } from './model.ts'
import { pingReceiver, rotateReceiverSecret } from './receiver-actions.ts'
import { listReceivers, saveReceiver } from './receivers.ts'

const ById = { params: t.Object({ id: IdParam }), scope: 'blog:admin' } as const

/** The admin area's webhook pages (spec §4.3): receivers, test pings, secret rotation, the delivery log and redelivery. */
export const webhookRoutes = (ctx: Ctx, wakeWorker: () => void) => {
  /** A delivery just queued is due now: the worker is woken instead of waiting for its next poll. */
  const queued = <T>(delivery: T): T => {
    wakeWorker()
    return delivery
  }
  return adminRoutes('webhooks.admin', '/api/admin/blog/webhooks')
    .post('/save', ({ body }) => saveReceiver(ctx, body), { body: WebhookSaveReq, scope: 'blog:admin' })
    .get('/', () => listReceivers(ctx.db), { scope: 'blog:admin' })
    .get('/events', ({ query }) => listDeliveries(ctx, { status: query.status, ...paging(query, 20) }), {
      query: DeliveryLogQuery,
      scope: 'blog:admin',
    })
    .post('/:id/ping', ({ params }) => queued(pingReceiver(ctx, Number(params.id))), ById)
    .post('/:id/rotate-secret', ({ params }) => rotateReceiverSecret(ctx, Number(params.id)), ById)
    .get('/events/:id', ({ params }) => deliveryDetail(ctx, Number(params.id)), ById)
    .post('/events/:id/redeliver', ({ params }) => queued(redeliver(ctx, Number(params.id))), ById)
}
