import { t } from 'elysia'
import { Id, Language, LIMITS, optText } from '../../http/schema.ts'
import { NAV_PLACEMENTS } from './terms.ts'

const NavPlacement = t.Union(
  NAV_PLACEMENTS.map((p) => t.Literal(p)),
  { description: '`header` or `footer`: linked from every site page in that language while published; `none` (default): not linked' },
)

export const PageSaveReq = t.Object(
  {
    id: t.Optional(t.Union([Id, t.Null()], { description: 'absent or null: create a page; else the page to update' })),
    language: Language,
    title: t.String({ minLength: 1, maxLength: LIMITS.title }),
    slug: optText(LIMITS.slug, 'one path segment of lower-case ASCII words joined by hyphens; blank: generated from the title'),
    alternateSlug: optText(LIMITS.slug, "the slug of this page's translation in the other language (hreflang pair)"),
    contentHtml: t.Optional(t.String({ maxLength: LIMITS.contentHtml })),
    contentMarkdown: t.Optional(t.String({ maxLength: LIMITS.contentMarkdown })),
    seoTitle: optText(LIMITS.shortText),
    seoDescription: optText(LIMITS.shortText),
    canonicalUrl: optText(LIMITS.url),
    robots: optText(LIMITS.shortText, '`noindex` keeps the page out of the sitemap and tells crawlers so'),
    indexable: t.Optional(t.Union([t.Boolean(), t.Null()])),
    ogTitle: optText(LIMITS.shortText),
    ogDescription: optText(LIMITS.text),
    ogImage: optText(LIMITS.url),
    navPlacement: t.Optional(t.Union([NavPlacement, t.Null()])),
    navOrder: t.Optional(t.Union([t.Integer({ minimum: 0, maximum: 9999 }), t.Null()], { description: 'smaller first; ties by id' })),
    status: t.Optional(t.Union([t.Literal(0), t.Literal(1), t.Null()], { description: '0 draft, 1 published (needs blog:publish)' })),
    version: t.Optional(t.Union([Id, t.Null()], { description: 'the version this edit is based on; like If-Match' })),
  },
  { $id: 'BlogPageSaveReq' },
)
export type PageSaveReq = typeof PageSaveReq.static

const Str = t.String()

const pageFields = {
  id: Id,
  language: Language,
  slug: Str,
  alternateSlug: Str,
  title: Str,
  seoTitle: Str,
  seoDescription: Str,
  canonicalUrl: Str,
  robots: Str,
  indexable: t.Boolean(),
  ogTitle: Str,
  ogDescription: Str,
  ogImage: Str,
  status: t.Integer({ minimum: 0, maximum: 1, description: '0 draft, 1 published' }),
  navPlacement: NavPlacement,
  navOrder: t.Integer({ minimum: 0 }),
  version: t.Integer({ minimum: 1, description: 'grows with every edit or status change; send it back as If-Match' }),
  publishedAt: t.Union([Str, t.Null()]),
  createTime: Str,
  updatedTime: Str,
  url: t.String({ description: "the page's public URL" }),
}

/** A page in a list: everything but the body. */
export const PageCardRes = t.Object(pageFields, { $id: 'BlogPageCardRes' })
export type PageCardRes = typeof PageCardRes.static

export const PageRes = t.Object({ ...pageFields, contentHtml: Str }, { $id: 'BlogPageRes' })
export type PageRes = typeof PageRes.static
