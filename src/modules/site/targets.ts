import { LANGUAGE_PATH, LANGUAGES, postPath, type Language } from '../../shared/language.ts'
import { SLUG_SHAPE } from '../../shared/slug.ts'
import { ASSETS, type AssetName } from './assets.ts'

/**
 * The public site's artifacts: each is one page (or feed, sitemap, asset) of the reader-facing
 * site, stored at its URL like every artifact of the pipeline, so Caddy needs no mapping of its
 * own. This module is the one place that knows both directions; `urlPathOf` is what links,
 * sitemaps and feeds print.
 */
export type ListScope =
  { kind: 'home' } | { kind: 'category'; slug: string } | { kind: 'tag'; slug: string } | { kind: 'author'; slug: string }

export type FeedFormat = 'rss' | 'atom' | 'json'

export type SiteTarget =
  | { kind: 'page.post'; language: Language; slug: string }
  | { kind: 'page.twin'; language: Language; slug: string }
  | { kind: 'page.list'; language: Language; scope: ListScope; page: number }
  | { kind: 'page.feed'; language: Language; scope: ListScope; format: FeedFormat }
  | { kind: 'page.product'; language: Language; id: number; slug: string }
  /** A standalone page (About, Contact; docs/pages.md) and its Markdown twin. */
  | { kind: 'page.standalone'; language: Language; slug: string }
  | { kind: 'page.standaloneTwin'; language: Language; slug: string }
  | { kind: 'page.sitemapStandalone' }
  | { kind: 'page.root' }
  | { kind: 'page.robots' }
  | { kind: 'page.llms' }
  | { kind: 'page.sitemap' }
  | { kind: 'page.sitemapPages'; shard: number }
  | { kind: 'page.sitemapPosts'; shard: number }
  | { kind: 'page.asset'; name: AssetName }

/** The CACHE_DIR top folders (and root file) site artifacts live in, for the rebuild's walk. */
export const SITE_TOP = [
  '@',
  ...LANGUAGES.map((l) => LANGUAGE_PATH[l].slice(1)),
  'assets',
  'sitemap',
  'sitemap.xml',
  'robots.txt',
  'llms.txt',
]

/** List pages pre-rendered per scope; deeper pages shift on every publish, so the API renders them on request. */
export const SITE_PAGES = { home: 5, scoped: 1 } as const
export const SITE_PAGE_SIZE = 10

export const FEED_FILES: Record<FeedFormat, string> = { rss: 'rss.xml', atom: 'atom.xml', json: 'feed.json' }

const scopePath = (language: Language, scope: ListScope) =>
  `${LANGUAGE_PATH[language]}/${scope.kind === 'home' ? '' : `${scope.kind}/${scope.slug}/`}`

/** The URL path a reader (or crawler) uses for a target; relative to SITE_URL. */
export function urlPathOf(target: SiteTarget): string {
  switch (target.kind) {
    case 'page.post':
      return postPath(target.language, target.slug)
    case 'page.twin':
      return `${postPath(target.language, target.slug)}.md`
    case 'page.list':
      return `${scopePath(target.language, target.scope)}${target.page > 1 ? `page/${target.page}/` : ''}`
    case 'page.feed':
      return `${scopePath(target.language, target.scope)}${FEED_FILES[target.format]}`
    case 'page.product':
      return `${LANGUAGE_PATH[target.language]}/products/${target.id}-${target.slug}`
    case 'page.standalone':
      return `${LANGUAGE_PATH[target.language]}/${target.slug}`
    case 'page.standaloneTwin':
      return `${LANGUAGE_PATH[target.language]}/${target.slug}.md`
    case 'page.root':
      return '/'
    case 'page.robots':
      return '/robots.txt'
    case 'page.llms':
      return '/llms.txt'
    case 'page.sitemap':
      return '/sitemap.xml'
    case 'page.sitemapPages':
      return `/sitemap/pages-${target.shard}.xml`
    case 'page.sitemapPosts':
      return `/sitemap/posts-${target.shard}.xml`
    case 'page.sitemapStandalone':
      return '/sitemap/standalone.xml'
    case 'page.asset':
      return `/assets/${ASSETS[target.name].file}`
  }
}

/**
 * The CACHE_DIR-relative file of a target, in the pipeline's layout (a file is named after the
 * URL that reads it): the URL path without its leading and trailing slash, then `/@`.
 */
export function sitePathOf(target: SiteTarget): string {
  const folder = urlPathOf(target).replace(/^\/+|\/+$/g, '')
  return folder ? `${folder}/@` : '@'
}

const LANGUAGE_OF: Record<string, Language> = Object.fromEntries(LANGUAGES.map((l) => [LANGUAGE_PATH[l].slice(1), l]))
const slugOk = (slug: string | undefined): slug is string => !!slug && SLUG_SHAPE.test(slug)
const pageNumber = (v: string | undefined) => (v && /^[1-9][0-9]{0,5}$/.test(v) ? Number(v) : null)
const FIXED: Record<string, SiteTarget> = {
  '': { kind: 'page.root' },
  'robots.txt': { kind: 'page.robots' },
  'llms.txt': { kind: 'page.llms' },
  'sitemap.xml': { kind: 'page.sitemap' },
  'sitemap/standalone.xml': { kind: 'page.sitemapStandalone' },
  ...Object.fromEntries(Object.values(ASSETS).map((a) => [`assets/${a.file}`, { kind: 'page.asset', name: a.name } as SiteTarget])),
}

/**
 * First path segments under `/en/` and `/cn/` the site (and the search branch's `/en/search`)
 * answers itself: a standalone page (`/en/{slug}`) may take none of them, so a page can never
 * shadow a list, a post (`/en/blog/…`), a product or a feed (docs/pages.md, "URLs").
 */
export const RESERVED_PAGE_SLUGS: ReadonlySet<string> = new Set([
  'blog',
  'category',
  'tag',
  'author',
  'page',
  'products',
  'search',
  'feed',
  'rss',
  'atom',
  'assets',
  'sitemap',
  'preview',
])

/** `[]`, `[category|tag|author, slug]`, each optionally followed by `page/{n}` or a feed file. */
function parseScoped(language: Language, parts: string[]): SiteTarget | null {
  const [first, second] = parts
  const scoped = first === 'category' || first === 'tag' || first === 'author'
  if (scoped && !slugOk(second)) return null
  const scope: ListScope = scoped ? { kind: first, slug: second! } : { kind: 'home' }
  const rest = parts.slice(scoped ? 2 : 0)
  if (!rest.length) return { kind: 'page.list', language, scope, page: 1 }
  const page = rest[0] === 'page' && rest.length === 2 ? pageNumber(rest[1]) : null
  if (page && page > 1) return { kind: 'page.list', language, scope, page }
  const format = (Object.keys(FEED_FILES) as FeedFormat[]).find((f) => rest.length === 1 && FEED_FILES[f] === rest[0])
  return format ? { kind: 'page.feed', language, scope, format } : null
}

/** The site target a URL path reads (a trailing slash optional, as for every artifact), or null. */
export function siteTargetOfUrl(pathname: string): SiteTarget | null {
  const rest = pathname.replace(/^\/+|\/+$/g, '')
  let target: SiteTarget | null = FIXED[rest] ?? null
  const shard = /^sitemap\/(pages|posts)-([1-9][0-9]{0,9})\.xml$/.exec(rest)
  if (shard) target = { kind: shard[1] === 'pages' ? 'page.sitemapPages' : 'page.sitemapPosts', shard: Number(shard[2]) }
  const [lang, ...parts] = rest.split('/')
  const language = LANGUAGE_OF[lang ?? '']
  if (!target && language) {
    const post = parts[0] === 'blog' && parts.length === 2 ? /^(.+?)(\.md)?$/.exec(parts[1]!) : null
    const product = parts[0] === 'products' && parts.length === 2 ? /^([1-9][0-9]{0,15})-(.+)$/.exec(parts[1]!) : null
    const standalone = parts.length === 1 ? /^(.+?)(\.md)?$/.exec(parts[0]!) : null
    if (post && slugOk(post[1])) target = { kind: post[2] ? 'page.twin' : 'page.post', language, slug: post[1] }
    else if (product && slugOk(product[2])) target = { kind: 'page.product', language, id: Number(product[1]), slug: product[2] }
    else if (standalone && slugOk(standalone[1]) && !RESERVED_PAGE_SLUGS.has(standalone[1]))
      target = { kind: standalone[2] ? 'page.standaloneTwin' : 'page.standalone', language, slug: standalone[1] }
    else if (parts[0] !== 'blog' && parts[0] !== 'products') target = parseScoped(language, parts)
  }
  // Only canonical spellings count (no `page/1`, no upper case): anything else is not an artifact.
  return target && urlPathOf(target).replace(/\/+$/, '') === `/${rest}`.replace(/\/+$/, '') ? target : null
}

const TYPES: [RegExp, string][] = [
  [/\/rss\.xml$/, 'application/rss+xml; charset=utf-8'],
  [/\/atom\.xml$/, 'application/atom+xml; charset=utf-8'],
  [/\/feed\.json$/, 'application/feed+json; charset=utf-8'],
  [/\.xml$/, 'application/xml; charset=utf-8'],
  [/\.md$/, 'text/markdown; charset=utf-8'],
  [/\.txt$/, 'text/plain; charset=utf-8'],
  [/\.css$/, 'text/css; charset=utf-8'],
  [/\.js$/, 'text/javascript; charset=utf-8'],
  [/\.svg$/, 'image/svg+xml'],
]

/**
 * The media type a site artifact is served with, from its URL path (or its file, `{path}/@`),
 * by Caddy and by the API alike: feeds, sitemaps, text, Markdown and assets by name, pages as HTML.
 * The Caddyfile's `map` mirrors this list.
 */
export function siteContentType(path: string): string {
  const url = path.replace(/\/?@$/, '')
  return TYPES.find(([re]) => re.test(url))?.[1] ?? 'text/html; charset=utf-8'
}

/** The product page a card's link (`productLinks`) reads: links are built by the resources module, pages here. */
export function productTargetOf(link: string): Extract<SiteTarget, { kind: 'page.product' }> {
  const target = siteTargetOfUrl(link)
  if (target?.kind !== 'page.product') throw new Error(`not a product link: ${link}`)
  return target
}
