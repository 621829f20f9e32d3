import { t, type TSchema } from 'elysia'
import { LIMITS } from '../shared/limits.ts'

/** Shared request-schema pieces; every text field has a documented upper bound (docs/api.md, "Limits"). */
export const Id = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
/**
 * Numbers in paths and query strings are matched as digit strings: Elysia's numeric coercion
 * drops the field name from range errors, and every 400 must name its field.
 */
export const IdParam = t.String({
  // At most 15 digits: every such number is exact in JSON and JavaScript, and the document can say so.
  pattern: '^[1-9][0-9]{0,14}$',
  description: 'a positive whole number',
  'x-oas': { type: 'integer', format: 'int64', minimum: 1, maximum: 999_999_999_999_999 },
})
/** A digit string the OpenAPI document describes as the integer it is (`x-oas`, see openapi/document.ts). */
const wholeNumber = (pattern: string, description: string, minimum: number, maximum: number) =>
  t.Optional(t.String({ pattern, description, 'x-oas': { type: 'integer', minimum, maximum } }))
export const toInt = (value: string | undefined, fallback: number): number => (value === undefined ? fallback : Number(value))
export const Language = t.Union([t.Literal('en'), t.Literal('zh')])
export const EnabledStatus = t.Union([t.Literal(0), t.Literal(1)])
/** The same status in answers (stored as a number). */
export const EnabledStatusRes = t.Integer({ minimum: 0, maximum: 1, description: '0 disabled, 1 enabled' })

/** Optional text that may also be sent as null. */
export const optText = (maxLength: number, description?: string) =>
  t.Optional(t.Union([t.String({ maxLength }), t.Null()], description ? { description } : {}))

/** A rule the verb checks beyond the schema, stated where the field is (and in a 400 that names it). */
export const SLUG_RULE = 'a slug of lower-case ASCII words joined by hyphens (at most 75 characters), or blank to generate one'
export const optId = t.Optional(t.Union([Id, t.Null()]))

export { LIMITS } from '../shared/limits.ts'

/** `current`/`size` query paging; a non-positive or oversized value is a 400 naming it. */
export const pageQuery = {
  current: wholeNumber('^[1-9][0-9]{0,5}$', 'a whole number from 1 to 999999', 1, 999_999),
  size: wholeNumber('^([1-9]|[1-9][0-9]|100)$', `a whole number from 1 to ${LIMITS.maxPageSize}`, 1, LIMITS.maxPageSize),
}

/** Page number and size from the query, with the endpoint's default size. */
export const paging = (query: { current?: string; size?: string }, defaultSize: number) => ({
  current: toInt(query.current, 1),
  size: toInt(query.size, defaultSize),
})

/** A page of records (`PageBlogPostRes`, `PageBlogResourceRes`), named `$id` in the OpenAPI document. */
export const pageOf = <T extends TSchema>(item: T, $id: string) =>
  t.Object(
    { total: t.Integer({ minimum: 0 }), size: t.Integer({ minimum: 1 }), current: t.Integer({ minimum: 1 }), records: t.Array(item) },
    { $id },
  )

export interface Page<T> {
  total: number
  size: number
  current: number
  records: T[]
}
