import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { IdParam, paging } from '../../http/schema.ts'
import { deliveryDetail, DeliveryLogQuery, listDeliveries, redeliver } from './delivery-log.ts'
import { pingReceiver, rotateReceiverSecret } from './receiver-actions.ts'
import { listReceivers, saveReceiver, WebhookSaveReq } from './receivers.ts'

const ById = { params: t.Object({ id: IdParam }), scope: 'blog:admin' } as const

/** The admin area's webhook pages (spec §4.3): receivers, the delivery log and redelivery. */
export const webhookRoutes = (ctx: Ctx, wakeWorker: () => void) =>
  new Elysia({ name: 'webhooks.admin', prefix: '/api/admin/blog/webhooks' })
    .use(auth)
    .post('/save', ({ body }) => saveReceiver(ctx, body), { body: WebhookSaveReq, scope: 'blog:admin' })
    .get('/', () => listReceivers(ctx.db), { scope: 'blog:admin' })
    .get('/events', ({ query }) => listDeliveries(ctx, { status: query.status, ...paging(query, 20) }), {
      query: DeliveryLogQuery,
      scope: 'blog:admin',
    })
    .post(
      '/:id/ping',
      ({ params }) => {
        const queued = pingReceiver(ctx, Number(params.id))
        wakeWorker()
        return queued
      },
      ById,
    )
    .post('/:id/rotate-secret', ({ params }) => rotateReceiverSecret(ctx, Number(params.id)), ById)
    .get('/events/:id', ({ params }) => deliveryDetail(ctx, Number(params.id)), ById)
    .post(
      '/events/:id/redeliver',
      ({ params }) => {
        const queued = redeliver(ctx, Number(params.id))
        wakeWorker()
        return queued
      },
      ById,
    )
