import type { Queryable } from '../../db/client.ts'
import { LANGUAGES } from '../../shared/language.ts'
import { renderSitemapIndex, renderUrlset, w3cTime, type SitemapEntry } from '../publishing/render/sitemap.ts'
import { pairPosts } from '../publishing/snapshot.ts'
import { absolute, alternatesOf, postUrl } from './head.ts'
import { discoverablePosts, postShards, productPages, scopesOf, sitemapPosts } from './snapshot.ts'
import { urlPathOf, type SiteTarget } from './targets.ts'

/**
 * The site's sitemap: `/sitemap.xml` is always an index of `/sitemap/pages.xml` (home, category,
 * tag, author and product pages) and `/sitemap/posts-{n}.xml`, the posts by id range, so a
 * publish touches one shard. Post entries carry the page's hreflang alternates and its cover.
 */
export function siteSitemapIndex(db: Queryable, siteUrl: string, shardSize: number): string {
  const shards = postShards(db, shardSize)
  const newest = shards.reduce((max, s) => (s.lastmod > max ? s.lastmod : max), '')
  const at = (target: SiteTarget) => `${siteUrl}${urlPathOf(target)}`
  return renderSitemapIndex([
    { loc: at({ kind: 'page.sitemapPages' }), lastmod: w3cTime(newest || '1970-01-01 00:00:00') },
    ...shards.map((s) => ({ loc: at({ kind: 'page.sitemapPosts', shard: s.shard }), lastmod: w3cTime(s.lastmod) })),
  ])
}

export function sitePostShard(db: Queryable, siteUrl: string, shardSize: number, shard: number): string | null {
  const rows = sitemapPosts(db, (shard - 1) * shardSize + 1, shard * shardSize)
  if (!rows.length) return null
  // Partners may live in other shards; pairing needs only slugs, which are light to read.
  const pairs = pairPosts(discoverablePosts(db))
  const entries: SitemapEntry[] = rows.map((row) => {
    const partner = pairs.get(row.id) ?? null
    return {
      loc: postUrl(siteUrl, row.language, row.slug),
      lastmod: w3cTime(row.updatedAt),
      alternates: alternatesOf(siteUrl, row, partner),
      images: row.coverImage ? [absolute(siteUrl, row.coverImage)] : [],
    }
  })
  return renderUrlset(entries)
}

/** Home, scope and product pages, each with the alternates its own head declares. */
export function sitePagesSitemap(db: Queryable, siteUrl: string): string {
  const at = (target: SiteTarget) => `${siteUrl}${urlPathOf(target)}`
  const homes = LANGUAGES.map((l) => at({ kind: 'page.list', language: l, scope: { kind: 'home' }, page: 1 }))
  const both = (urls: string[]) => [
    ...LANGUAGES.map((hreflang, i) => ({ hreflang, href: urls[i]! })),
    { hreflang: 'x-default', href: urls[0]! },
  ]
  const entries: SitemapEntry[] = []
  for (const language of LANGUAGES) {
    for (const scope of scopesOf(db, language)) {
      const loc = at({ kind: 'page.list', language, scope, page: 1 })
      entries.push({ loc, lastmod: '', alternates: scope.kind === 'home' ? both(homes) : [] })
    }
  }
  const byId = new Map<number, string[]>()
  for (const p of productPages(db)) byId.set(p.id, [...(byId.get(p.id) ?? []), at(p)])
  for (const pair of byId.values()) for (const loc of pair) entries.push({ loc, lastmod: '', alternates: both(pair) })
  return renderUrlset(entries)
}
