import type { Queryable } from '../../db/client.ts'
import { LANGUAGES, otherLanguage, type Language, postUrl } from '../../shared/language.ts'
import { renderSitemapIndex, renderUrlset, w3cTime, type SitemapEntry } from '../artifacts/render/sitemap.ts'
import { idsOf, shardOf, type PostShards, type SitemapRows } from '../artifacts/snapshot.ts'
import { absolute, alternatesOf } from './head.ts'
import { listedScopes, productPages } from './snapshot.ts'
import { standaloneLastmod } from './standalone.tsx'
import { type SiteTarget, urlPathOf } from './targets.ts'

/**
 * The site's sitemap: `/sitemap.xml` is always an index of `/sitemap/pages-{n}.xml` (home,
 * category, tag, author and product pages) and `/sitemap/posts-{n}.xml`, the posts by id range,
 * each shard at most SITEMAP_SHARD_SIZE URLs, so a change touches one shard. Post entries carry
 * the page's hreflang alternates and its cover.
 */
export function siteSitemapIndex(db: Queryable, shardsOf: PostShards, siteUrl: string, shardSize: number): string {
  const shards = shardsOf(shardSize)
  const newest = w3cTime(shards.reduce((max, s) => (s.lastmod > max ? s.lastmod : max), '') || '1970-01-01 00:00:00')
  const at = (target: SiteTarget) => `${siteUrl}${urlPathOf(target)}`
  const standalone = standaloneLastmod(db)
  return renderSitemapIndex([
    ...pagesShards(db, shardSize).map((t) => ({ loc: at(t), lastmod: newest })),
    ...(standalone ? [{ loc: at({ kind: 'page.sitemapStandalone' }), lastmod: standalone }] : []),
    ...shards.map((s) => ({ loc: at({ kind: 'page.sitemapPosts', shard: s.shard }), lastmod: w3cTime(s.lastmod) })),
  ])
}

export function sitePostShard(sitemapRows: SitemapRows, siteUrl: string, shardSize: number, shard: number): string | null {
  const { first, last } = idsOf(shard, shardSize)
  const rows = sitemapRows(first, last)
  if (!rows.length) return null
  const entries: SitemapEntry[] = rows.map((row) => {
    const partner = row.partnerSlug === null ? null : { language: otherLanguage(row.language), slug: row.partnerSlug }
    return {
      loc: postUrl(siteUrl, row.language, row.slug),
      lastmod: w3cTime(row.updatedAt),
      alternates: alternatesOf(siteUrl, row, partner),
      images: row.coverImage ? [absolute(siteUrl, row.coverImage)] : [],
    }
  })
  return renderUrlset(entries)
}

/** The kinds of row with pages in the pages sitemap; a row's kind and id fix its place there. */
export type PageRowKind = 'category' | 'tag' | 'author' | 'product'
const ROW_KINDS: PageRowKind[] = ['category', 'tag', 'author', 'product']

/**
 * A page's key in the pages sitemap: fixed by its row's kind and id and its language, so a page
 * never moves when other rows come or go, and shard n holds keys (n-1)·size+1 … n·size as posts
 * shards hold ids. The two home pages take keys 1 and 2; row id i of kind k (0–3) takes slot
 * 4(i−1)+k+1, one key per language. Shards run sparse where a kind has few rows: the price of
 * a change re-rendering only its own shard.
 */
export function pageKey(kind: PageRowKind | 'home', id: number, language: Language): number {
  const slot = kind === 'home' ? 0 : 4 * (id - 1) + ROW_KINDS.indexOf(kind) + 1
  return 2 * slot + LANGUAGES.indexOf(language) + 1
}

type PageShard = Extract<SiteTarget, { kind: 'page.sitemapPages' }>

/** The pages shards a row's pages sit in, in either language (an author may change language). */
export function pagesShardsOf(kind: PageRowKind, id: number, shardSize: number): PageShard[] {
  const shards = new Set(LANGUAGES.map((language) => shardOf(pageKey(kind, id, language), shardSize)))
  return [...shards].map((shard) => ({ kind: 'page.sitemapPages', shard }))
}

type ListedPage = Extract<SiteTarget, { kind: 'page.list' | 'page.product' }>

/** Home, scope and product pages with their keys, in key order. */
function listedPages(db: Queryable): { key: number; target: ListedPage }[] {
  const pages: { key: number; target: ListedPage }[] = []
  for (const language of LANGUAGES)
    for (const { scope, id } of listedScopes(db, language))
      pages.push({ key: pageKey(scope.kind, id, language), target: { kind: 'page.list', language, scope, page: 1 } })
  for (const target of productPages(db)) pages.push({ key: pageKey('product', target.id, target.language), target })
  return pages.sort((a, b) => a.key - b.key)
}

/** The pages shards holding at least one page (shard 1 always: it holds the home pages). */
export function pagesShards(db: Queryable, shardSize: number): PageShard[] {
  const shards = new Set(listedPages(db).map((p) => shardOf(p.key, shardSize)))
  return [...shards].map((shard) => ({ kind: 'page.sitemapPages', shard }))
}

/** One pages shard, each page with the alternates its own head declares; null when it holds none. */
export function sitePagesShard(db: Queryable, siteUrl: string, shardSize: number, shard: number): string | null {
  const at = (target: SiteTarget) => `${siteUrl}${urlPathOf(target)}`
  const both = (urls: string[]) => [
    ...LANGUAGES.map((hreflang, i) => ({ hreflang, href: urls[i]! })),
    { hreflang: 'x-default', href: urls[0]! },
  ]
  const homes = LANGUAGES.map((l) => at({ kind: 'page.list', language: l, scope: { kind: 'home' }, page: 1 }))
  const products = new Map<number, string[]>()
  for (const p of productPages(db)) products.set(p.id, [...(products.get(p.id) ?? []), at(p)])
  const alternates = (t: ListedPage) => (t.kind === 'page.product' ? both(products.get(t.id)!) : t.scope.kind === 'home' ? both(homes) : [])
  const entries: SitemapEntry[] = listedPages(db)
    .filter((p) => shardOf(p.key, shardSize) === shard)
    .map((p) => ({ loc: at(p.target), lastmod: '', alternates: alternates(p.target) }))
  return entries.length ? renderUrlset(entries) : null
}
