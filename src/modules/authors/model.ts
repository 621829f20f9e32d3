import { t } from 'elysia'
import { EnabledStatus, EnabledStatusRes, Id, Language, LIMITS, optId, optText, SLUG_RULE } from '../../http/schema.ts'

export const AuthorReq = t.Object(
  {
    id: optId,
    slug: optText(LIMITS.slug, SLUG_RULE),
    language: Language,
    name: t.String({ minLength: 1, maxLength: LIMITS.name, pattern: '\\S' }),
    title: optText(LIMITS.name),
    bio: optText(LIMITS.longText),
    avatar: optText(LIMITS.url),
    credentials: optText(LIMITS.text),
    socialLinks: optText(LIMITS.longText, 'a JSON object or array of public links, as a string'),
    status: t.Optional(t.Union([EnabledStatus, t.Null()])),
    sort: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()])),
  },
  { $id: 'BlogAuthorReq' },
)
export type AuthorReq = typeof AuthorReq.static

export const AuthorRes = t.Object(
  {
    id: Id,
    slug: t.String(),
    language: Language,
    name: t.String(),
    title: t.String(),
    bio: t.String(),
    avatar: t.String(),
    credentials: t.String(),
    socialLinks: t.String(),
    status: EnabledStatusRes,
    /**
     * Discoverable posts linked to the author. Null inside a post's `authorProfile`: embedding a
     * count there would make every publish rewrite every post of that author.
     */
    postCount: t.Union([t.Integer({ minimum: 0 }), t.Null()], { description: 'Discoverable linked posts; null inside a post response.' }),
  },
  { $id: 'BlogAuthorRes' },
)
export type AuthorRes = typeof AuthorRes.static
