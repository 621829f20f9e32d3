import { LANGUAGES, type Language } from '../../shared/language.ts'
import { SLUG_SHAPE } from '../../shared/slug.ts'
import { siteContentType, sitePathOf, siteTargetOf, type SiteTarget } from '../site/targets.ts'

/**
 * Every pre-rendered artifact is one anonymous read of the spec (§4.2, §4.3). Its file lives at
 * the request path under CACHE_DIR, with the query folded into the file name, so the Caddyfile
 * only has to turn a request into that name. This module is the one place that knows the
 * mapping in both directions; the Caddyfile mirrors `requestTarget`.
 */
export type Target =
  | { kind: 'post'; language: Language; slug: string }
  | { kind: 'posts'; language: Language | null; filter: ListFilter; page: number }
  | { kind: 'categories' }
  | { kind: 'tags'; language: TagLanguage | null }
  | { kind: 'authors'; language: Language | null }
  | { kind: 'author'; language: Language; slug: string }
  | { kind: 'authorPosts'; language: Language; slug: string; page: number }
  | { kind: 'settings' }
  | { kind: 'rss'; language: Language }
  | { kind: 'sitemap' }
  | { kind: 'sitemapShard'; shard: number }
  | { kind: 'robots' }
  | { kind: 'openapi' }
  | SiteTarget

type TagLanguage = 'all' | Language
/** At most one of the post list filters; a list filtered twice is never pre-rendered. */
export type ListFilter = { categoryId: number } | { tagId: number } | { authorId: number } | null

/** Pages pre-rendered per list: deeper pages shift on every publish, so the API answers them. */
export const PAGES = { posts: 5, filtered: 1, authorPosts: 5 } as const
export const PAGE_SIZE = { posts: 10, authorPosts: 12 } as const

export const API = '/api/v1/blog'
const P = 'api/v1/blog'

const slugOk = (slug: string) => SLUG_SHAPE.test(slug)
const filterName = (f: ListFilter) =>
  `c${f && 'categoryId' in f ? f.categoryId : ''}-t${f && 'tagId' in f ? f.tagId : ''}-a${f && 'authorId' in f ? f.authorId : ''}`

/** The CACHE_DIR-relative file of a target. */
export function pathOf(target: Target): string {
  switch (target.kind) {
    case 'post':
      return `${P}/posts/${target.slug}/${target.language}.json`
    case 'posts':
      return `${P}/posts/_list/${target.language ?? 'any'}/${filterName(target.filter)}/${target.page}.json`
    case 'categories':
      return `${P}/categories.json`
    case 'tags':
      return `${P}/tags/${target.language ?? 'any'}.json`
    case 'authors':
      return `${P}/authors/_list/${target.language ?? 'any'}.json`
    case 'author':
      return `${P}/authors/${target.slug}/${target.language}.json`
    case 'authorPosts':
      return `${P}/authors/${target.slug}/posts/${target.language}/${target.page}.json`
    case 'settings':
      return `${P}/publication-settings.json`
    case 'rss':
      return `${P}/rss/${target.language}.xml`
    case 'sitemap':
      return `${P}/sitemap.xml`
    case 'sitemapShard':
      return `${P}/sitemap/${target.shard}.xml`
    case 'robots':
      return `${P}/robots.txt`
    case 'openapi':
      return `${P}/openapi.json`
    default:
      return sitePathOf(target)
  }
}

const language = (v: string | undefined): Language | null => ((LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : null)
const anyOr = <T>(v: string | undefined, parse: (v: string) => T | null): T | null | undefined =>
  v === 'any' ? null : v === undefined ? undefined : (parse(v) ?? undefined)
const whole = (v: string | undefined): number | null => (v && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : null)

function parseFilter(name: string): ListFilter | undefined {
  const m = /^c([1-9][0-9]*)?-t([1-9][0-9]*)?-a([1-9][0-9]*)?$/.exec(name)
  if (!m) return undefined
  const [c, t, a] = [m[1], m[2], m[3]].map((v) => (v ? Number(v) : null))
  const set = [c, t, a].filter((v) => v !== null).length
  if (set > 1) return undefined
  return c ? { categoryId: c } : t ? { tagId: t } : a ? { authorId: a } : null
}

/** The target a CACHE_DIR-relative path holds, or null when no artifact lives there (stale junk). */
export function targetOf(path: string): Target | null {
  if (!path.startsWith(`${P}/`)) return siteTargetOf(path)
  const parts = path.startsWith(`${P}/`) ? path.slice(P.length + 1).split('/') : []
  const [a, b, c, d, e] = parts
  const file = (name: string | undefined, ext: string) => (name?.endsWith(ext) ? name.slice(0, -ext.length) : undefined)
  let target: Target | null = null
  if (parts.length === 1) {
    const fixed: Record<string, Target> = {
      'categories.json': { kind: 'categories' },
      'publication-settings.json': { kind: 'settings' },
      'sitemap.xml': { kind: 'sitemap' },
      'robots.txt': { kind: 'robots' },
      'openapi.json': { kind: 'openapi' },
    }
    target = fixed[a!] ?? null
  } else if (a === 'posts' && b === '_list' && parts.length === 5) {
    const lang = anyOr(c, language)
    const filter = parseFilter(d!)
    const page = whole(file(e, '.json'))
    if (lang !== undefined && filter !== undefined && page) target = { kind: 'posts', language: lang, filter, page }
  } else if (a === 'posts' && parts.length === 3) {
    const lang = language(file(c, '.json'))
    if (lang && slugOk(b!)) target = { kind: 'post', language: lang, slug: b! }
  } else if (a === 'tags' && parts.length === 2) {
    const lang = anyOr(file(b, '.json'), (v) => (v === 'all' ? 'all' : language(v)))
    if (lang !== undefined) target = { kind: 'tags', language: lang }
  } else if (a === 'authors' && b === '_list' && parts.length === 3) {
    const lang = anyOr(file(c, '.json'), language)
    if (lang !== undefined) target = { kind: 'authors', language: lang }
  } else if (a === 'authors' && parts.length === 3) {
    const lang = language(file(c, '.json'))
    if (lang && slugOk(b!)) target = { kind: 'author', language: lang, slug: b! }
  } else if (a === 'authors' && c === 'posts' && parts.length === 5) {
    const lang = language(d)
    const page = whole(file(e, '.json'))
    if (lang && page && slugOk(b!)) target = { kind: 'authorPosts', language: lang, slug: b!, page }
  } else if (a === 'rss' && parts.length === 2) {
    const lang = language(file(b, '.xml'))
    if (lang) target = { kind: 'rss', language: lang }
  } else if (a === 'sitemap' && parts.length === 2) {
    const shard = whole(file(b, '.xml'))
    if (shard) target = { kind: 'sitemapShard', shard }
  }
  // Only canonical names count: anything that does not map back to itself is junk.
  return target && pathOf(target) === path ? target : null
}

/**
 * The artifact that answers an anonymous GET, following the same rules as the Caddyfile: only
 * pre-rendered query keys and values (defaults applied), each key at most once, and only the
 * default page size; anything else is answered by the API itself.
 */
export function requestTarget(url: URL): Target | null {
  const keys = [...url.searchParams.keys()]
  if (new Set(keys).size !== keys.length) return null
  const q = Object.fromEntries(url.searchParams)
  const only = (...allowed: string[]) => keys.every((k) => allowed.includes(k))
  const lang = q.language === undefined ? 'en' : language(q.language)
  const page = q.current === undefined ? 1 : whole(q.current)
  const path = url.pathname
  const rest = path.startsWith(`${API}/`) ? path.slice(API.length + 1) : null
  if (rest === null) return null
  const segments = rest.split('/')
  let target: Target | null = null
  if (rest === 'posts' && only('language', 'current', 'size', 'categoryId', 'tagId', 'authorId')) {
    const filters = (['categoryId', 'tagId', 'authorId'] as const).filter((k) => q[k] !== undefined)
    const id = filters[0] ? whole(q[filters[0]]) : null
    const listLang = q.language === undefined ? null : language(q.language)
    const valid = filters.length <= 1 && (!filters[0] || id) && (q.language === undefined || listLang) && page
    if (valid && (q.size === undefined || q.size === String(PAGE_SIZE.posts))) {
      const filter = filters[0] ? ({ [filters[0]]: id } as ListFilter) : null
      target = { kind: 'posts', language: listLang, filter, page: page! }
    }
  } else if (segments[0] === 'posts' && segments.length === 2 && only('language') && lang) {
    if (!['operate', 'delete'].includes(segments[1]!)) target = { kind: 'post', language: lang, slug: segments[1]! }
  } else if (rest === 'categories' && only()) target = { kind: 'categories' }
  else if (rest === 'tags' && only('language')) {
    const tagLang = q.language === undefined ? null : q.language === 'all' ? 'all' : language(q.language)
    if (q.language === undefined || tagLang) target = { kind: 'tags', language: tagLang }
  } else if (rest === 'authors' && only('language')) {
    if (q.language === undefined || language(q.language)) target = { kind: 'authors', language: q.language === undefined ? null : lang }
  } else if (segments[0] === 'authors' && segments.length === 2 && only('language') && lang)
    target = { kind: 'author', language: lang, slug: segments[1]! }
  else if (segments[0] === 'authors' && segments[2] === 'posts' && segments.length === 3 && only('language', 'current', 'size')) {
    if (lang && page && (q.size === undefined || q.size === String(PAGE_SIZE.authorPosts)))
      target = { kind: 'authorPosts', language: lang, slug: segments[1]!, page }
  } else if (rest === 'publication-settings' && only()) target = { kind: 'settings' }
  else if (rest === 'rss.xml' && only('language') && lang) target = { kind: 'rss', language: lang }
  else if (rest === 'sitemap.xml' && only()) target = { kind: 'sitemap' }
  else if (segments[0] === 'sitemap' && segments.length === 2 && only()) {
    const shard = whole(segments[1]?.replace(/\.xml$/, ''))
    if (shard && segments[1]!.endsWith('.xml')) target = { kind: 'sitemapShard', shard }
  } else if (rest === 'robots.txt' && only()) target = { kind: 'robots' }
  else if (rest === 'openapi.json' && only()) target = { kind: 'openapi' }
  // Slugs outside the public shape are never pre-rendered; `targetOf` refuses them.
  return target && targetOf(pathOf(target)) ? target : null
}

/** The media type each artifact is served with, by Caddy and by the API alike. */
export function contentTypeOf(path: string): string {
  if (!path.startsWith(`${P}/`)) return siteContentType(path)
  if (path.endsWith('.xml')) return 'application/xml; charset=utf-8'
  if (path.endsWith('.txt')) return 'text/plain; charset=utf-8'
  return 'application/json; charset=utf-8'
}
