import { and, asc, eq, gte, lte, max, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts } from '../../db/schema/index.ts'
import { LANGUAGE_PATH, otherLanguage, postPath, type Language } from '../../shared/language.ts'
import { parseTime } from '../../shared/time.ts'
import type { PostLists } from '../posts/public.ts'
import { discoverable } from '../posts/visibility.ts'
import type { RssChannel, RssItem } from './render/rss.ts'
import { w3cTime, type SitemapEntry, type SitemapRef } from './render/sitemap.ts'

/** Items per RSS feed: the newest discoverable posts of the language. */
export const RSS_ITEMS = 20

export interface SiteOptions {
  siteUrl: string
  /** URLs per sitemap shard; at most 50,000 (the protocol's limit), smaller in tests. */
  sitemapShardSize: number
}

export const publicUrl = (siteUrl: string, language: Language, slug: string) => `${siteUrl}${postPath(language, encodeURIComponent(slug))}`
export const sitemapUrl = (siteUrl: string) => `${siteUrl}/api/v1/blog/sitemap.xml`
export const shardUrl = (siteUrl: string, shard: number) => `${siteUrl}/api/v1/blog/sitemap/${shard}.xml`

interface SitemapRow {
  id: number
  language: Language
  slug: string
  alternateSlug: string
  updatedAt: string
}

export const sitemapColumns = {
  id: posts.id,
  language: posts.language,
  slug: posts.slug,
  alternateSlug: posts.alternateSlug,
  updatedAt: posts.updatedAt,
}

/** What pairing translations needs of a post. */
export const pairColumns = { id: posts.id, language: posts.language, slug: posts.slug, alternateSlug: posts.alternateSlug }

const key = (language: string, slug: string) => `${language}:${slug.toLowerCase()}`

type PairRow = Omit<SitemapRow, 'updatedAt'>

/**
 * Translated pairs among discoverable posts: a post is paired with the other-language post its
 * `alternateSlug` names, or else with one that names it, so both sides of a pair carry the
 * same hreflang links (search engines ignore one-way annotations).
 */
export function pairPosts(rows: readonly PairRow[]): Map<number, PairRow> {
  const bySlug = new Map(rows.map((r) => [key(r.language, r.slug), r]))
  const namedBy = new Map<string, PairRow>()
  for (const r of rows)
    if (r.alternateSlug && !namedBy.has(key(otherLanguage(r.language), r.alternateSlug)))
      namedBy.set(key(otherLanguage(r.language), r.alternateSlug), r)
  const pairs = new Map<number, PairRow>()
  for (const row of rows) {
    const partner =
      (row.alternateSlug && bySlug.get(key(otherLanguage(row.language), row.alternateSlug))) || namedBy.get(key(row.language, row.slug))
    if (partner) pairs.set(row.id, partner)
  }
  return pairs
}

function allSitemapRows(db: Queryable): SitemapRow[] {
  return db.select(sitemapColumns).from(posts).where(discoverable).orderBy(asc(posts.id)).all()
}

function entriesOf(siteUrl: string, rows: readonly SitemapRow[], pairs: Map<number, PairRow>): SitemapEntry[] {
  return rows.map((row) => {
    const partner = pairs.get(row.id)
    const urls = partner
      ? {
          [row.language]: publicUrl(siteUrl, row.language, row.slug),
          [partner.language]: publicUrl(siteUrl, partner.language, partner.slug),
        }
      : null
    return {
      loc: publicUrl(siteUrl, row.language, row.slug),
      lastmod: w3cTime(row.updatedAt),
      alternates: urls
        ? [
            { hreflang: 'en', href: urls.en! },
            { hreflang: 'zh', href: urls.zh! },
            { hreflang: 'x-default', href: urls.en! },
          ]
        : [],
    }
  })
}

export type SitemapData = { kind: 'urlset'; entries: SitemapEntry[] } | { kind: 'index'; shards: SitemapRef[] }

const countDiscoverable = (db: Queryable) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(posts)
    .where(discoverable)
    .get()?.n ?? 0

/** Which shard a post's URL lives in: by id range, so a publish touches one shard and the others keep their bytes. */
export const shardOf = (postId: number, shardSize: number) => Math.floor((postId - 1) / shardSize) + 1

/**
 * Shards a post change makes or unmakes besides its own: `sitemap.xml` turns from one urlset into
 * an index of shards (or back) when the discoverable count crosses the shard size, and a post
 * change moves that count by at most one, so only at size or size+1 does every shard count.
 */
export function thresholdShards(db: Queryable, shardSize: number): number[] {
  const n = countDiscoverable(db)
  if (n !== shardSize && n !== shardSize + 1) return []
  return [...new Set(db.select({ id: posts.id }).from(posts).where(discoverable).all().map((p) => shardOf(p.id, shardSize)))]
}

/** `sitemap.xml`: every URL while they fit in one shard, else an index of the id-range shards. */
export function sitemapData(db: Queryable, options: SiteOptions): SitemapData {
  if (countDiscoverable(db) <= options.sitemapShardSize) {
    const rows = allSitemapRows(db)
    return { kind: 'urlset', entries: entriesOf(options.siteUrl, rows, pairPosts(rows)) }
  }
  const shard = sql<number>`(${posts.id} - 1) / ${options.sitemapShardSize} + 1`
  const shards = db
    .select({ shard, lastmod: max(posts.updatedAt) })
    .from(posts)
    .where(discoverable)
    .groupBy(shard)
    .orderBy(shard)
    .all()
  return { kind: 'index', shards: shards.map((s) => ({ loc: shardUrl(options.siteUrl, s.shard), lastmod: w3cTime(s.lastmod ?? '') })) }
}

/** One shard's entries, or null when the site fits in `sitemap.xml` alone or the shard is empty. */
export function sitemapShard(db: Queryable, options: SiteOptions, shard: number): SitemapEntry[] | null {
  if (countDiscoverable(db) <= options.sitemapShardSize) return null
  const first = (shard - 1) * options.sitemapShardSize + 1
  const rows = db
    .select(sitemapColumns)
    .from(posts)
    .where(and(discoverable, gte(posts.id, first), lte(posts.id, first + options.sitemapShardSize - 1)))
    .orderBy(asc(posts.id))
    .all()
  if (!rows.length) return null
  // Partners may live in other shards; the pairing needs only slugs, which are light to read.
  const all = db.select(pairColumns).from(posts).where(discoverable).all()
  return entriesOf(options.siteUrl, rows, pairPosts(all))
}

/** The discoverable posts a sitemap entry of `row` pairs with, for planning which shards a change touches. */
export function partnersOf(db: Queryable, row: { language: Language; slug: string; alternateSlug: string }): number[] {
  const other = otherLanguage(row.language)
  // Two lookups, each on its own index (posts_slug, posts_alternate_slug); one OR of both scanned every post of the language.
  const find = (where: SQL) =>
    db
      .select({ id: posts.id })
      .from(posts)
      .where(and(discoverable, eq(posts.language, other), where))
      .all()
      .map((r) => r.id)
  const named = row.alternateSlug ? find(sql`lower(${posts.slug}) = lower(${row.alternateSlug})`) : []
  return [...new Set([...named, ...find(sql`lower(${posts.alternateSlug}) = lower(${row.slug})`)])]
}

/** RSS 2.0 channel and items of one language: the newest discoverable posts (the head of the language's list), with category and tag names. */
export function rssData(lists: PostLists, siteUrl: string, language: Language): { channel: RssChannel; items: RssItem[] } {
  const cards = lists.page({ language, current: 1, size: RSS_ITEMS }).records
  const host = new URL(siteUrl).host
  const name = (names: { nameEn: string; nameZh: string }) =>
    language === 'zh' ? names.nameZh || names.nameEn : names.nameEn || names.nameZh
  const items = cards.map((card) => ({
    title: card.title,
    link: publicUrl(siteUrl, language, card.slug),
    guid: `folio-post-${card.id}`,
    pubDate: parseTime(card.publishedAt) ?? new Date(0),
    description: card.summary,
    categories: [...(card.category ? [name(card.category)] : []), ...card.tags.map(name)].filter(Boolean),
  }))
  return {
    channel: {
      title: language === 'zh' ? `${host} 博客` : `${host} blog`,
      link: `${siteUrl}${LANGUAGE_PATH[language]}/blog`,
      description: language === 'zh' ? `${host} 的最新文章` : `Latest posts from ${host}`,
      language: language === 'zh' ? 'zh-CN' : 'en',
      selfUrl: `${siteUrl}/api/v1/blog/rss.xml?language=${language}`,
    },
    items,
  }
}
