import { t, type DocumentDecoration, type TSchema } from 'elysia'

/**
 * What a route promises beyond its request schemas (which Elysia already holds): its name in the
 * OpenAPI document and the shape of its answer. Every route spreads `contract({...})` into its
 * options; the document (http/openapi/document.ts) is generated from the routes alone, so
 * a route that is declared is described, and a test fails for any route without a contract.
 */
export interface RouteContract {
  /** Unique, camelCase: the method name a generated client gets. */
  operationId: string
  summary: string
  tag: string
  description?: string
  /** `data` of the success envelope (a schema with a `$id` becomes a named component). */
  data?: TSchema
  /** A non-envelope answer (feeds): its media type; the body is text. */
  raw?: string
  /** The answer may be `301` to the current slug (old slugs of posts). */
  redirect?: boolean
  /** A state-changing GET: answered `no-store`, never revalidated (no 304). */
  noStore?: boolean
  /** Refusals beyond 400/401/403/500, by HTTP status: what they mean (an `ErrorResult` each), e.g. `{ 412: 'VERSION_MISMATCH: ...' }`. */
  refusals?: Record<number, string>
  /** Path parameters documented under another name (the router needs one name per segment: `:id` holds a slug). */
  pathParams?: Record<string, string>
}

const CONTRACT_KEY = 'x-folio-contract'

export const contract = (route: RouteContract): { detail: DocumentDecoration } => ({
  detail: {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    ...(route.description ? { description: route.description } : {}),
    [CONTRACT_KEY]: route,
  } as DocumentDecoration,
})

/** The contract a route declared, or undefined when it declared none. */
export const contractOf = (detail: unknown): RouteContract | undefined =>
  detail && typeof detail === 'object' ? (detail as Record<string, RouteContract | undefined>)[CONTRACT_KEY] : undefined

const Str = t.String()

/** A field at fault and why (`data.errors[]` of a 400). */
const FieldErrorRes = t.Object(
  {
    field: t.String({ description: 'the field at fault, dotted for nested ones: `faqBlocks.0.question`' }),
    message: Str,
  },
  { $id: 'FieldError' },
)

/**
 * The shapes a 400's `data` takes: `errors[]` for every validation and business refusal
 * (media refusals add what the server accepts), `failedItems` for BLOG_SEO_BLOCKED.
 */
export const ValidationErrorData = t.Object(
  {
    errors: t.Array(FieldErrorRes),
    field: t.Optional(Str),
    acceptedTypes: t.Optional(t.Array(Str)),
    maxBytes: t.Optional(t.Integer()),
    size: t.Optional(t.Integer()),
  },
  { $id: 'ValidationErrorData' },
)

export const SeoBlockedData = t.Object(
  {
    canPublish: t.Boolean(),
    failedItems: t.Array(Str, { description: 'codes of the failed blocking checks' }),
    failures: t.Array(t.Object({ code: Str, targetField: Str, message: Str, fixAction: Str, autoFixType: t.Union([Str, t.Null()]) })),
    score: t.Integer({ minimum: 0, maximum: 100 }),
    aeoScore: t.Integer({ minimum: 0, maximum: 100 }),
  },
  { $id: 'SeoBlockedData' },
)

export const ForbiddenData = t.Object({ requiredScope: Str }, { $id: 'ForbiddenData' })
export const RateLimitedData = t.Object({ retryAfterSeconds: t.Integer({ minimum: 1 }) }, { $id: 'RateLimitedData' })
export const InternalErrorData = t.Object(
  { requestId: t.String({ description: 'also in X-Request-Id and in the error log line' }) },
  { $id: 'InternalErrorData' },
)
