import { t } from 'elysia'
import { EnabledStatus, EnabledStatusRes, Id, LIMITS, optId, optText, SLUG_RULE } from '../../http/schema.ts'

export const CategoryReq = t.Object(
  {
    id: optId,
    slug: optText(LIMITS.slug, SLUG_RULE),
    nameEn: t.String({ minLength: 1, maxLength: LIMITS.name, pattern: '\\S' }),
    nameZh: optText(LIMITS.name),
    descriptionEn: optText(LIMITS.text),
    descriptionZh: optText(LIMITS.text),
    sort: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()])),
    status: t.Optional(t.Union([EnabledStatus, t.Null()])),
  },
  { $id: 'BlogCategoryReq' },
)
export type CategoryReq = typeof CategoryReq.static

export const CategoryRes = t.Object(
  {
    id: Id,
    slug: t.String(),
    nameEn: t.String(),
    nameZh: t.String(),
    descriptionEn: t.String(),
    descriptionZh: t.String(),
    sort: t.Integer(),
    status: EnabledStatusRes,
  },
  { $id: 'BlogCategoryRes' },
)
export type CategoryRes = typeof CategoryRes.static

export const TagLanguage = t.Union([t.Literal('all'), t.Literal('en'), t.Literal('zh')])

export const TagReq = t.Object(
  {
    id: optId,
    slug: optText(LIMITS.slug, SLUG_RULE),
    nameEn: optText(LIMITS.name, 'the English name (a tag needs nameEn or nameZh)'),
    nameZh: optText(LIMITS.name, 'the Chinese name (a tag needs nameEn or nameZh)'),
    language: TagLanguage,
    status: t.Optional(t.Union([EnabledStatus, t.Null()])),
  },
  { $id: 'BlogTagReq' },
)
export type TagReq = typeof TagReq.static

export const TagRes = t.Object(
  { id: Id, slug: t.String(), nameEn: t.String(), nameZh: t.String(), language: TagLanguage, status: EnabledStatusRes },
  { $id: 'BlogTagRes' },
)
export type TagRes = typeof TagRes.static
