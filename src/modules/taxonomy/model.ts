import { t } from 'elysia'
import { EnabledStatus, LIMITS, optId, optText } from '../../http/schema.ts'

export const CategoryReq = t.Object({
  id: optId,
  slug: optText(LIMITS.slug),
  nameEn: t.String({ minLength: 1, maxLength: LIMITS.name, pattern: '\\S' }),
  nameZh: optText(LIMITS.name),
  descriptionEn: optText(LIMITS.text),
  descriptionZh: optText(LIMITS.text),
  sort: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()])),
  status: t.Optional(t.Union([EnabledStatus, t.Null()])),
})
export type CategoryReq = typeof CategoryReq.static

export interface CategoryRes {
  id: number
  slug: string
  nameEn: string
  nameZh: string
  descriptionEn: string
  descriptionZh: string
  sort: number
  status: number
}

export const TagLanguage = t.Union([t.Literal('all'), t.Literal('en'), t.Literal('zh')])

export const TagReq = t.Object({
  id: optId,
  slug: optText(LIMITS.slug),
  nameEn: optText(LIMITS.name),
  nameZh: optText(LIMITS.name),
  language: TagLanguage,
  status: t.Optional(t.Union([EnabledStatus, t.Null()])),
})
export type TagReq = typeof TagReq.static

export interface TagRes {
  id: number
  slug: string
  nameEn: string
  nameZh: string
  language: string
  status: number
}
