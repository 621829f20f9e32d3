import { and, asc, eq, gte, lte, max, sql, type SQL } from 'drizzle-orm'
import { alias, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { Queryable } from '../../db/client.ts'
import { idIn, preparedOnce } from '../../db/prepared.ts'
import { posts } from '../../db/schema/index.ts'
import { LANGUAGES, otherLanguage, type Language, postUrl } from '../../shared/language.ts'
import { memo } from '../../shared/memo.ts'
import { discoverable } from '../posts/visibility.ts'
import { urlOf } from './paths.ts'
import { w3cTime, type SitemapEntry, type SitemapRef } from './render/sitemap.ts'

export interface SiteOptions {
  siteUrl: string
  /** URLs per sitemap shard: 50,000 by default (the protocol's limit), smaller on a large busy site and in tests. */
  sitemapShardSize: number
  /** MEDIA_URL (default `<SITE_URL>/media`): which images the site pages show responsively. */
  mediaUrl?: string
  /** WEBSUB_HUB (docs/discovery.md): the hub the site's feeds name, or null. */
  webSubHub?: string | null
}

export const sitemapUrl = (siteUrl: string) => `${siteUrl}${urlOf({ kind: 'sitemap' }).path}`
export const shardUrl = (siteUrl: string, shard: number) => `${siteUrl}${urlOf({ kind: 'sitemapShard', shard }).path}`

/** A discoverable post as a sitemap entry shows it, with the post it pairs with (its slug; its language is the other one). */
export interface SitemapRow {
  id: number
  language: Language
  slug: string
  alternateSlug: string
  updatedAt: string
  coverImage: string
  partnerSlug: string | null
}

const partner = alias(posts, 'partner')
const partnerTable = sql`${posts} ${sql.identifier('partner')}`
/** A column of the sitemap's row inside the partner subqueries (drizzle leaves a one-table query's columns unqualified). */
const own = (column: AnySQLiteColumn) => sql`${posts}.${sql.identifier(column.name)}`
/** `partner` is discoverable and of the other language than the row's. */
const partnerListed = and(
  eq(partner.listed, 1),
  eq(partner.language, sql`case ${own(posts.language)} when ${LANGUAGES[0]} then ${LANGUAGES[1]} else ${LANGUAGES[0]} end`),
)

/**
 * The slug of the post a `posts` row pairs with (its language is the other one): the discoverable
 * other-language post its `alternateSlug` names, else the first (lowest id) naming it; one
 * definition for the sitemap's rows and a batch of post pages (`partnerSlugsOf`), each lookup on
 * its slug index.
 */
const partnerSlug = sql<string | null>`coalesce(
  (select ${partner.slug} from ${partnerTable} where ${own(posts.alternateSlug)} <> '' and ${partnerListed}
    and lower(${partner.slug}) = lower(${own(posts.alternateSlug)}) order by ${partner.id} limit 1),
  (select ${partner.slug} from ${partnerTable} where ${partnerListed}
    and lower(${partner.alternateSlug}) = lower(${own(posts.slug)}) order by ${partner.id} limit 1))`

/** Discoverable posts of a language matching `where` on a slug index, in id order. */
const translations = (db: Queryable, where: SQL) =>
  db
    .select({ id: posts.id, slug: posts.slug })
    .from(posts)
    .where(and(discoverable, eq(posts.language, sql.placeholder('language')), where))
    .orderBy(asc(posts.id))
    .prepare()

/**
 * The statements of the sitemaps, prepared once. Each reads only what a document holds: a shard
 * seeks its id range on `posts_sitemap` (listed, id, updated_at), and pairs its own rows through
 * the slug indexes (`posts_slug`, `posts_alternate_slug`): a post pairs with the discoverable
 * other-language post its `alternateSlug` names, or else with the first (lowest id) naming it, so
 * both sides of a pair carry the same hreflang links (search engines ignore one-way annotations),
 * and a page's own hreflang (`partnerOf`) agrees.
 */
const statements = preparedOnce((db) => ({
  rows: db
    .select({
      id: posts.id,
      language: posts.language,
      slug: posts.slug,
      alternateSlug: posts.alternateSlug,
      updatedAt: posts.updatedAt,
      coverImage: posts.coverImage,
      partnerSlug,
    })
    .from(posts)
    .where(and(discoverable, gte(posts.id, sql.placeholder('first')), lte(posts.id, sql.placeholder('last'))))
    .orderBy(asc(posts.id))
    .prepare(),
  count: db
    .select({ n: sql<number>`count(*)` })
    .from(
      db
        .select({ one: sql`1`.as('one') })
        .from(posts)
        .where(discoverable)
        .limit(sql.placeholder('limit'))
        .as('listed'),
    )
    .prepare(),
  lastId: db
    .select({ id: max(posts.id) })
    .from(posts)
    .where(discoverable)
    .prepare(),
  lastmod: db
    .select({ lastmod: max(posts.updatedAt) })
    .from(posts)
    .where(and(discoverable, gte(posts.id, sql.placeholder('first')), lte(posts.id, sql.placeholder('last'))))
    .prepare(),
  shards: db
    .selectDistinct({ shard: sql<number>`(${posts.id} - 1) / ${sql.placeholder('size')} + 1` })
    .from(posts)
    .where(discoverable)
    .prepare(),
  // The partners of a batch's posts, by id (`partnerSlugsOf`).
  pairs: db.select({ id: posts.id, partnerSlug }).from(posts).where(idIn(posts.id)).prepare(),
  // A post's translations, lowest id first: the posts its `alternateSlug` names, and those naming it.
  named: translations(db, sql`lower(${posts.slug}) = lower(${sql.placeholder('slug')})`),
  naming: translations(db, sql`lower(${posts.alternateSlug}) = lower(${sql.placeholder('slug')})`),
}))

/** The discoverable posts with ids `first` … `last`, in id order, each with its partner. */
export type SitemapRows = (first: number, last: number) => SitemapRow[]

/**
 * `SitemapRows` read once per snapshot: the API's `sitemap.xml` and the site's posts shard list
 * the same posts (all of them while they fit in one shard), so a pass reads them once. A range
 * past the newest post is the same range ending there, so both spellings share one read.
 */
export function sitemapRowsOnce(db: Queryable): SitemapRows {
  const { rows } = statements(db)
  const read = memo<string, SitemapRow[]>()
  let top: number | undefined
  return (first, last) => {
    top ??= highestDiscoverable(db)
    return read(`${first}:${Math.min(last, top)}`, () => rows.all({ first, last }))
  }
}

function entriesOf(siteUrl: string, rows: readonly SitemapRow[]): SitemapEntry[] {
  return rows.map((row) => {
    const loc = postUrl(siteUrl, row.language, row.slug)
    if (row.partnerSlug === null) return { loc, lastmod: w3cTime(row.updatedAt), alternates: [] }
    const urls = { [row.language]: loc, [otherLanguage(row.language)]: postUrl(siteUrl, otherLanguage(row.language), row.partnerSlug) }
    return {
      loc,
      lastmod: w3cTime(row.updatedAt),
      alternates: [
        { hreflang: 'en', href: urls.en! },
        { hreflang: 'zh', href: urls.zh! },
        { hreflang: 'x-default', href: urls.en! },
      ],
    }
  })
}

export type SitemapData = { kind: 'urlset'; entries: SitemapEntry[] } | { kind: 'index'; shards: SitemapRef[] }

/** How many posts are discoverable, counting no further than `limit`: the sitemaps only ask how it compares with the shard size. */
const countDiscoverable = (db: Queryable, limit: number) => statements(db).count.get({ limit })?.n ?? 0

/**
 * The highest discoverable id, one seek: ids are distinct and positive, so no more posts than that
 * are discoverable. While it stays under the shard size (every site of fewer posts than that ever
 * made) the sitemaps know where they stand without counting, a walk of every post (~0.8 ms at
 * 10,000) that every publish's write would otherwise make.
 */
const highestDiscoverable = (db: Queryable) => statements(db).lastId.get()?.id ?? 0

/** Whether every discoverable post fits in one sitemap of `size` URLs. */
const fitsOneShard = (db: Queryable, size: number) => highestDiscoverable(db) <= size || countDiscoverable(db, size + 1) <= size

/** Which shard a post's URL lives in: by id range, so a publish touches one shard and the others keep their bytes. */
export const shardOf = (postId: number, shardSize: number) => Math.floor((postId - 1) / shardSize) + 1

/** The first and last id of a shard. */
export const idsOf = (shard: number, shardSize: number) => ({ first: (shard - 1) * shardSize + 1, last: shard * shardSize })

/** A sitemap shard holding a discoverable post, with its newest change. */
export interface PostShard {
  shard: number
  lastmod: string
}

/**
 * The shards holding a discoverable post, each with its newest change: one seek of the
 * `posts_sitemap` index (listed, id, updated_at, …) per shard, never a sort of every post.
 */
export function postShards(db: Queryable, shardSize: number): PostShard[] {
  const { lastmod } = statements(db)
  const shards: PostShard[] = []
  const top = highestDiscoverable(db)
  if (!top) return shards
  for (let shard = 1; shard <= shardOf(top, shardSize); shard++) {
    const newest = lastmod.get(idsOf(shard, shardSize))?.lastmod
    if (newest) shards.push({ shard, lastmod: newest })
  }
  return shards
}

/** `postShards` by shard size. */
export type PostShards = (shardSize: number) => PostShard[]

/**
 * `postShards` read once per snapshot: the API's `sitemap.xml` and the site's `/sitemap.xml` both
 * index the same shards, and each seek reads its shard's whole id range for the newest change.
 */
export function postShardsOnce(db: Queryable): PostShards {
  const read = memo<number, PostShard[]>()
  return (shardSize) => read(shardSize, () => postShards(db, shardSize))
}

/**
 * Shards a post change makes or unmakes besides its own: `sitemap.xml` turns from one urlset into
 * an index of shards (or back) when the discoverable count crosses the shard size, and a post
 * change moves that count by at most one, so only at size or size+1 does every shard count.
 */
export function thresholdShards(db: Queryable, shardSize: number): number[] {
  if (highestDiscoverable(db) < shardSize) return []
  const n = countDiscoverable(db, shardSize + 2)
  if (n !== shardSize && n !== shardSize + 1) return []
  return statements(db)
    .shards.all({ size: shardSize })
    .map((s) => s.shard)
}

/** `sitemap.xml`: every URL while they fit in one shard, else an index of the id-range shards. */
export function sitemapData(db: Queryable, options: SiteOptions, sitemapRows: SitemapRows, shardsOf: PostShards): SitemapData {
  if (fitsOneShard(db, options.sitemapShardSize))
    return { kind: 'urlset', entries: entriesOf(options.siteUrl, sitemapRows(1, Number.MAX_SAFE_INTEGER)) }
  const shards = shardsOf(options.sitemapShardSize)
  return { kind: 'index', shards: shards.map((s) => ({ loc: shardUrl(options.siteUrl, s.shard), lastmod: w3cTime(s.lastmod) })) }
}

/** One shard's entries, or null when the site fits in `sitemap.xml` alone or the shard is empty. */
export function sitemapShard(db: Queryable, options: SiteOptions, shard: number, sitemapRows: SitemapRows): SitemapEntry[] | null {
  if (fitsOneShard(db, options.sitemapShardSize)) return null
  const { first, last } = idsOf(shard, options.sitemapShardSize)
  const rows = sitemapRows(first, last)
  return rows.length ? entriesOf(options.siteUrl, rows) : null
}

type Translatable = { language: Language; slug: string; alternateSlug: string }

/** The other-language post a discoverable post pairs with: the one its `alternateSlug` names, else the first naming it (as the sitemap pairs them). */
export function partnerOf(db: Queryable, row: Translatable): { language: Language; slug: string } | null {
  const language = otherLanguage(row.language)
  const { named, naming } = statements(db)
  const found =
    (row.alternateSlug ? named.get({ language, slug: row.alternateSlug }) : undefined) ?? naming.get({ language, slug: row.slug })
  return found ? { language, slug: found.slug } : null
}

/**
 * `partnerOf` for a batch of posts, by id, in one statement: the partner's slug (its language is
 * the other one), or null. A page per post of a rebuild asked it two lookups at a time.
 */
export function partnerSlugsOf(db: Queryable, ids: readonly number[]): Map<number, string | null> {
  if (!ids.length) return new Map()
  return new Map(
    partnerPairs(db)
      .all({ ids: JSON.stringify(ids) })
      .map((row) => [row.id, row.partnerSlug]),
  )
}

/** The statement behind `partnerSlugsOf` (its plan is checked: test/publishing/query-plans.test.ts). */
export const partnerPairs = (db: Queryable) => statements(db).pairs

/** The discoverable posts a sitemap entry of `row` pairs with, for planning which shards a change touches. */
export function partnersOf(db: Queryable, row: Translatable): number[] {
  const { named, naming } = statements(db)
  const language = otherLanguage(row.language)
  // Two lookups, each on its own index (posts_slug, posts_alternate_slug); one OR of both scanned every post of the language.
  const ids = [...(row.alternateSlug ? named.all({ language, slug: row.alternateSlug }) : []), ...naming.all({ language, slug: row.slug })]
  return [...new Set(ids.map((r) => r.id))]
}
