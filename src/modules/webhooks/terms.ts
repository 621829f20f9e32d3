/** The receivers' and the delivery log's fixed terms, shared by the verbs, their schemas (model.ts) and the CLI. */
export const SECRET_MIN_LENGTH = 16
export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]
