import { t } from 'elysia'
import { Id, pageQuery } from '../../http/schema.ts'
import { LIMITS } from '../../shared/limits.ts'
import { DELIVERY_STATUSES, SECRET_MIN_LENGTH } from './terms.ts'

// The webhook pages' request schemas, in Elysia's `t` for the routes, apart from the verbs in
// receivers.ts and delivery-log.ts: `webhook list` loads no web framework (docs/benchmarks.md, "CLI start").

export const WebhookSaveReq = t.Object({
  /** Absent: a new receiver. Present: replaces url and events; an absent secret or enabled keeps the stored one. */
  id: t.Optional(Id),
  url: t.String({ minLength: 1, maxLength: LIMITS.url }),
  secret: t.Optional(t.String({ minLength: SECRET_MIN_LENGTH, maxLength: 256 })),
  events: t.Array(t.String({ maxLength: 64 }), { minItems: 1, maxItems: 10 }),
  enabled: t.Optional(t.Boolean()),
})
export type WebhookSaveReq = typeof WebhookSaveReq.static

export const DeliveryLogQuery = t.Object({
  status: t.Optional(t.Union(DELIVERY_STATUSES.map((s) => t.Literal(s)))),
  ...pageQuery,
})
