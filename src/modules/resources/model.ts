import { t } from 'elysia'
import { LIMITS } from '../../http/schema.ts'

/** Resource status (spec §3): one enum for the import file, the search filter and the response. */
export const RESOURCE_STATUS = { active: 1, offline: 2, outOfStock: 3 } as const

export const RESOURCE_STATUS_DESCRIPTION = '1 (active), 2 (offline) or 3 (out of stock)'
export const ResourceStatus = t.Union([t.Literal(1), t.Literal(2), t.Literal(3)], { description: RESOURCE_STATUS_DESCRIPTION })

/** Bounds shared by the import file and the search request. */
export const RESOURCE_LIMITS = {
  code: 64,
  productId: 64,
  description: 20_000,
  keywords: LIMITS.name,
  searchTerms: 8,
  sourceType: 1_000_000,
  defaultPageSize: 10,
} as const

/** `BlogResourceSearchReq` (spec §2.10); every field may be absent or null. */
export const ResourceSearchReq = t.Object({
  current: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 999_999 }), t.Null()], { description: 'a whole number from 1 to 999999' })),
  size: t.Optional(
    t.Union([t.Integer({ minimum: 1, maximum: LIMITS.maxPageSize }), t.Null()], {
      description: `a whole number from 1 to ${LIMITS.maxPageSize}`,
    }),
  ),
  keywords: t.Optional(t.Union([t.String({ maxLength: RESOURCE_LIMITS.keywords }), t.Null()])),
  categoryCode: t.Optional(t.Union([t.String({ maxLength: RESOURCE_LIMITS.code }), t.Null()])),
  sourceType: t.Optional(
    t.Union([t.Integer({ minimum: 0, maximum: RESOURCE_LIMITS.sourceType }), t.Null()], {
      description: `a whole number from 0 to ${RESOURCE_LIMITS.sourceType}`,
    }),
  ),
  status: t.Optional(t.Union([ResourceStatus, t.Null()], { description: RESOURCE_STATUS_DESCRIPTION })),
})
export type ResourceSearchReq = typeof ResourceSearchReq.static

/** `BlogResourceCategoryRes` (spec §2.10). */
export interface ResourceCategoryRes {
  id: number
  code: string
  nameEn: string
  nameZh: string
  iconUrl: string
  children: ResourceCategoryRes[]
}

export interface ByLanguage {
  en: string
  zh: string
}

/**
 * `BlogResourceRes` (spec §2.10) plus what an agent needs to place a product without
 * re-deriving the spec's display rules: crawlable links, plain-text summaries, the display
 * price and a ready, escaped card for `contentHtml`.
 */
export interface ResourceRes {
  id: number
  productId: string
  nameEn: string
  nameZh: string
  descriptionEn: string
  descriptionZh: string
  categoryCode: string
  categoryName: string
  stock: number
  cnyPrice: number
  usdtPrice: number
  sourceType: number
  status: number
  links: ByLanguage
  summaryEn: string
  summaryZh: string
  /** `usdtPrice / 10000`. */
  displayPrice: number
  /** The display price as the card shows it: at least two, at most four decimals, e.g. `"12.50"`. */
  displayPriceText: string
  cardHtml: ByLanguage
}
