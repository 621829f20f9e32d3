import { LANGUAGES, type Language } from '../../shared/language.ts'
import { SLUG_SHAPE } from '../../shared/slug.ts'
import { ARTIFACT_MARK, fileOf } from '../publishing/files.ts'
import { siteContentType, sitePathOf, siteTargetOfUrl, urlPathOf, type SiteTarget } from '../site/targets.ts'

/**
 * Every pre-rendered artifact is one anonymous read of the spec (§4.2, §4.3). Its file is named
 * after the URL that reads it: `{URL path}/@{query}` under CACHE_DIR, the query in its canonical
 * spelling (keys in the spec's order, defaults left out). So Caddy needs no knowledge of the
 * reads: it looks for `{path}/@{query}` and serves it when present. A read whose language defaults
 * to `en` may also be spelled with the default (`?language=en`): that spelling has no file of its
 * own; Caddy and the API look it up as the canonical file (`readQuery`). This module is the one
 * place that knows the mapping in both directions.
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

/**
 * The URL of an artifact: path, canonical query, and for a read whose language defaults to `en`
 * the query with the default spelled out (`language=en…`), the same read under another URL.
 */
export interface ArtifactUrl {
  path: string
  query: string
  spelledOut?: string
}

const FILTER_KEYS = ['categoryId', 'authorId', 'tagId'] as const

/** `a=1&b=2` from the pairs whose value is set, in the order given. */
const queryOf = (pairs: [string, string | number | null | undefined][]) =>
  pairs
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('&')

/** A read whose language defaults to `en`: `?language=en` is its spelled-out default (`readQuery` maps it back). */
const defaultingToEn = (path: string, language: Language, rest: [string, string | number | null][] = []): ArtifactUrl => ({
  path,
  query: queryOf([['language', language === 'en' ? null : language], ...rest]),
  ...(language === 'en' && { spelledOut: queryOf([['language', 'en'], ...rest]) }),
})

/**
 * The spelled-out defaults `defaultingToEn` makes, read back (post, author, author's posts, RSS;
 * an optional trailing slash, as Caddy's `{path}` keeps it): `language=en` first, then nothing or
 * an author's page number, which is kept. The Caddyfile's `map {path}?{query} {read_query}` holds
 * the same two patterns (test/publishing/paths.test.ts compares them): change both together.
 * `[^/?]+`: one path segment; each pattern is anchored, so one linear pass.
 */
const SPELLED_DEFAULT = [
  /^\/api\/v1\/blog\/(?:(?:posts|authors)\/[^/?]+|authors\/[^/?]+\/posts|rss\.xml)\/?\?language=en$/,
  /^\/api\/v1\/blog\/authors\/[^/?]+\/posts\/?\?language=en&(current=[1-9][0-9]*)$/,
]

/**
 * The query a request's file is looked up by, as Caddy's `{read_query}` gives it: the query as
 * sent, but for a read whose language defaults to `en` spelled with that default, which is looked
 * up as the canonical file without it (`?language=en` → `@`, `?language=en&current=2` →
 * `@current=2`). Reads whose `language` does not default (lists, tags) keep theirs.
 */
export function readQuery(pathname: string, query: string): string {
  if (!query.startsWith('language=en')) return query
  const url = `${pathname}?${query}`
  for (const pattern of SPELLED_DEFAULT) {
    const spelled = pattern.exec(url)
    if (spelled) return spelled[1] ?? ''
  }
  return query
}

export function urlOf(target: Target): ArtifactUrl {
  const fixed = (path: string): ArtifactUrl => ({ path: `${API}/${path}`, query: '' })
  const page = (n: number) => (n === 1 ? null : n)
  switch (target.kind) {
    case 'post':
      return defaultingToEn(`${API}/posts/${target.slug}`, target.language)
    case 'posts': {
      const filter = FILTER_KEYS.map((k): [string, number | null] => [
        k,
        target.filter && k in target.filter ? (target.filter as Record<string, number>)[k]! : null,
      ])
      return {
        path: `${API}/posts`,
        query: queryOf([['language', target.language], ['current', page(target.page)], ...filter]),
      }
    }
    case 'categories':
      return fixed('categories')
    case 'tags':
      return { path: `${API}/tags`, query: queryOf([['language', target.language]]) }
    case 'authors':
      return { path: `${API}/authors`, query: queryOf([['language', target.language]]) }
    case 'author':
      return defaultingToEn(`${API}/authors/${target.slug}`, target.language)
    case 'authorPosts':
      return defaultingToEn(`${API}/authors/${target.slug}/posts`, target.language, [['current', page(target.page)]])
    case 'settings':
      return fixed('publication-settings')
    case 'rss':
      return defaultingToEn(`${API}/rss.xml`, target.language)
    case 'sitemap':
      return fixed('sitemap.xml')
    case 'sitemapShard':
      return fixed(`sitemap/${target.shard}.xml`)
    case 'robots':
      return fixed('robots.txt')
    case 'openapi':
      return fixed('openapi.json')
    default:
      // Site pages: the URL as printed in links, without the trailing slash (as Caddy joins paths).
      return { path: urlPathOf(target).replace(/(.)\/+$/, '$1'), query: '' }
  }
}

/** The CACHE_DIR-relative main file of a target: what jobs, the manifest and the memory cache are keyed by. */
export function pathOf(target: Target): string {
  if (target.kind.startsWith('page.')) return sitePathOf(target as SiteTarget)
  const url = urlOf(target)
  return fileOf(url.path, url.query)
}

/**
 * The other URLs (path and query) that read a target's file, which a CDN may hold beside the
 * file's own: the spelled-out default (`/api/v1/blog/posts/x?language=en`). No file is written
 * for them (`readQuery`).
 */
export function spellingsOf(target: Target): string[] {
  if (target.kind.startsWith('page.')) return []
  const url = urlOf(target)
  return url.spelledOut === undefined ? [] : [`${url.path}?${url.spelledOut}`]
}

const language = (v: string | undefined): Language | null => ((LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : null)
const whole = (v: string | undefined): number | null => (v && /^[1-9][0-9]{0,15}$/.test(v) ? Number(v) : null)
const slugOk = (slug: string | undefined): slug is string => !!slug && SLUG_SHAPE.test(slug)

/**
 * The artifact that answers an anonymous GET of any spelling: only pre-rendered query keys and
 * values (defaults applied), each key at most once, and only the default page size; anything
 * else is answered by the API itself.
 */
export function requestTarget(url: URL): Target | null {
  const keys = [...url.searchParams.keys()]
  if (new Set(keys).size !== keys.length) return null
  const q = Object.fromEntries(url.searchParams)
  const only = (...allowed: string[]) => keys.every((k) => allowed.includes(k))
  const lang = q.language === undefined ? 'en' : language(q.language)
  const page = q.current === undefined ? 1 : whole(q.current)
  const rest = url.pathname.startsWith(`${API}/`) ? url.pathname.slice(API.length + 1) : null
  // The public site: any query (tracking parameters) reads the same page.
  if (rest === null) return url.pathname.startsWith('/api/') ? null : siteTargetOfUrl(url.pathname)
  const [first, second, third, ...more] = rest.split('/')
  const depth = more.length ? 4 : third !== undefined ? 3 : second !== undefined ? 2 : 1
  if (rest === 'posts' && only('language', 'current', 'size', ...FILTER_KEYS)) {
    const filters = FILTER_KEYS.filter((k) => q[k] !== undefined)
    const id = filters[0] ? whole(q[filters[0]]) : null
    const listLang = q.language === undefined ? null : language(q.language)
    const valid = filters.length <= 1 && (!filters[0] || id) && (q.language === undefined || listLang) && page
    if (!valid || (q.size !== undefined && q.size !== String(PAGE_SIZE.posts))) return null
    const filter = filters[0] ? ({ [filters[0]]: id } as ListFilter) : null
    return { kind: 'posts', language: listLang, filter, page: page! }
  }
  if (first === 'posts' && depth === 2 && only('language') && lang && slugOk(second))
    return ['operate', 'delete'].includes(second) ? null : { kind: 'post', language: lang, slug: second }
  if (rest === 'categories' && only()) return { kind: 'categories' }
  if (rest === 'tags' && only('language')) {
    if (q.language === undefined) return { kind: 'tags', language: null }
    const tagLang = q.language === 'all' ? 'all' : language(q.language)
    return tagLang ? { kind: 'tags', language: tagLang } : null
  }
  if (rest === 'authors' && only('language')) {
    if (q.language === undefined) return { kind: 'authors', language: null }
    return lang ? { kind: 'authors', language: lang } : null
  }
  if (first === 'authors' && depth === 2 && only('language') && lang && slugOk(second))
    return { kind: 'author', language: lang, slug: second }
  if (first === 'authors' && third === 'posts' && depth === 3 && only('language', 'current', 'size') && slugOk(second)) {
    const sizeOk = q.size === undefined || q.size === String(PAGE_SIZE.authorPosts)
    return lang && page && sizeOk ? { kind: 'authorPosts', language: lang, slug: second, page } : null
  }
  if (rest === 'publication-settings' && only()) return { kind: 'settings' }
  if (rest === 'rss.xml' && only('language') && lang) return { kind: 'rss', language: lang }
  if (rest === 'sitemap.xml' && only()) return { kind: 'sitemap' }
  if (first === 'sitemap' && depth === 2 && only() && second?.endsWith('.xml')) {
    const shard = whole(second.slice(0, -4))
    return shard ? { kind: 'sitemapShard', shard } : null
  }
  if (rest === 'robots.txt' && only()) return { kind: 'robots' }
  if (rest === 'openapi.json' && only()) return { kind: 'openapi' }
  return null
}

/** The target a CACHE_DIR-relative file holds, or null when no artifact lives there (stale junk, an old alias link). */
export function targetOf(file: string): Target | null {
  if (file === ARTIFACT_MARK) return { kind: 'page.root' }
  const mark = file.lastIndexOf(`/${ARTIFACT_MARK}`)
  if (mark < 0) return null
  const query = file.slice(mark + 2)
  if (!/^[A-Za-z0-9=&]*$/.test(query)) return null
  const target = requestTarget(new URL(`http://x/${file.slice(0, mark)}${query ? `?${query}` : ''}`))
  // Only canonical names count: anything that does not map back to itself is junk.
  return target && pathOf(target) === file ? target : null
}

/**
 * The media type an artifact is served with, by Caddy and by the API alike, from its URL path:
 * `.xml` and `.txt` by extension, the API's reads are JSON, anything else is an HTML page.
 */
export function contentTypeOf(file: string): string {
  const urlPath = `/${file.slice(0, Math.max(0, file.lastIndexOf(`/${ARTIFACT_MARK}`)))}`
  if (!urlPath.startsWith('/api/')) return siteContentType(urlPath)
  if (urlPath.endsWith('.xml')) return 'application/xml; charset=utf-8'
  if (urlPath.endsWith('.txt')) return 'text/plain; charset=utf-8'
  return 'application/json; charset=utf-8'
}
