import { t } from 'elysia'
import { Id, LIMITS, pageOf } from '../../http/schema.ts'

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
export const ResourceSearchReq = t.Object(
  {
    current: t.Optional(
      t.Union([t.Integer({ minimum: 1, maximum: 999_999 }), t.Null()], { description: 'a whole number from 1 to 999999' }),
    ),
    size: t.Optional(
      t.Union([t.Integer({ minimum: 1, maximum: LIMITS.maxPageSize }), t.Null()], {
        description: `a whole number from 1 to ${LIMITS.maxPageSize}`,
      }),
    ),
    keywords: t.Optional(
      t.Union([t.String({ maxLength: RESOURCE_LIMITS.keywords }), t.Null()], {
        description: `search words (at most ${RESOURCE_LIMITS.searchTerms}) matching a resource's id, name or description`,
      }),
    ),
    categoryCode: t.Optional(t.Union([t.String({ maxLength: RESOURCE_LIMITS.code }), t.Null()])),
    sourceType: t.Optional(
      t.Union([t.Integer({ minimum: 0, maximum: RESOURCE_LIMITS.sourceType }), t.Null()], {
        description: `a whole number from 0 to ${RESOURCE_LIMITS.sourceType}`,
      }),
    ),
    status: t.Optional(t.Union([ResourceStatus, t.Null()], { description: RESOURCE_STATUS_DESCRIPTION })),
  },
  { $id: 'BlogResourceSearchReq' },
)
export type ResourceSearchReq = typeof ResourceSearchReq.static

/** `BlogResourceCategoryRes` (spec §2.10): a tree. */
export const ResourceCategoryRes = t.Recursive(
  (self) => t.Object({ id: Id, code: t.String(), nameEn: t.String(), nameZh: t.String(), iconUrl: t.String(), children: t.Array(self) }),
  { $id: 'BlogResourceCategoryRes' },
)
export type ResourceCategoryRes = typeof ResourceCategoryRes.static

const ByLanguage = t.Object({ en: t.String(), zh: t.String() })
export type ByLanguage = typeof ByLanguage.static

/**
 * `BlogResourceRes` (spec §2.10) plus what an agent needs to place a product without
 * re-deriving the spec's display rules: crawlable links, plain-text summaries, the display
 * price and a ready, escaped card for `contentHtml`.
 */
export const ResourceRes = t.Object(
  {
    id: Id,
    productId: t.String(),
    nameEn: t.String(),
    nameZh: t.String(),
    descriptionEn: t.String(),
    descriptionZh: t.String(),
    categoryCode: t.String(),
    categoryName: t.String(),
    stock: t.Integer(),
    cnyPrice: t.Integer(),
    usdtPrice: t.Integer(),
    sourceType: t.Integer(),
    status: t.Integer({ minimum: 1, maximum: 3, description: RESOURCE_STATUS_DESCRIPTION }),
    links: ByLanguage,
    summaryEn: t.String(),
    summaryZh: t.String(),
    displayPrice: t.Number({ description: '`usdtPrice / 10000`' }),
    displayPriceText: t.String({ description: 'the display price as the card shows it: two to four decimals, e.g. `"12.50"`' }),
    cardHtml: ByLanguage,
  },
  { $id: 'BlogResourceRes' },
)
export type ResourceRes = typeof ResourceRes.static

export const ResourcePage = pageOf(ResourceRes, 'PageBlogResourceRes')
