import { t } from 'elysia'
import { EnabledStatus, Language, LIMITS, optId, optText } from '../../http/schema.ts'

export const AuthorReq = t.Object({
  id: optId,
  slug: optText(LIMITS.slug),
  language: Language,
  name: t.String({ minLength: 1, maxLength: LIMITS.name, pattern: '\\S' }),
  title: optText(LIMITS.name),
  bio: optText(LIMITS.longText),
  avatar: optText(LIMITS.url),
  credentials: optText(LIMITS.text),
  socialLinks: optText(LIMITS.longText),
  status: t.Optional(t.Union([EnabledStatus, t.Null()])),
  sort: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()])),
})
export type AuthorReq = typeof AuthorReq.static

export interface AuthorRes {
  id: number
  slug: string
  language: string
  name: string
  title: string
  bio: string
  avatar: string
  credentials: string
  socialLinks: string
  status: number
  /**
   * Discoverable posts linked to the author. Null inside a post's `authorProfile`: embedding a
   * count there would make every publish rewrite every post of that author.
   */
  postCount: number | null
}
