import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { categories, posts } from '../../src/db/schema/index.ts'
import {
  partnersOf,
  postShards,
  postShardsOnce,
  sitemapData,
  sitemapRowsOnce,
  thresholdShards,
} from '../../src/modules/artifacts/snapshot.ts'
import { migratedTempDb } from '../support/temp-db.ts'

/** The sitemaps' reads against a real, migrated SQLite file. */
const { db, dispose } = migratedTempDb('folio-sitemap-rows-')
afterAll(dispose)
const eqId = (id: number) => eq(posts.id, id)

const post = (language: 'en' | 'zh', slug: string, alternateSlug = '', extra: Partial<typeof posts.$inferInsert> = {}) =>
  db
    .insert(posts)
    .values({ language, slug, alternateSlug, title: slug, contentHtml: '<p>x</p>', categoryId: 1, status: 1, ...extra })
    .returning({ id: posts.id })
    .get().id

beforeAll(() => {
  db.insert(categories).values({ slug: 'c', nameEn: 'C' }).run()
})

describe('sitemap rows', () => {
  test('pairs are symmetric whichever side names the other; the lowest id naming a post wins', () => {
    const hello = post('en', 'hello', 'Ni-Hao')
    const niHao = post('zh', 'ni-hao')
    const alone = post('en', 'alone', 'missing')
    const sameLanguage = post('en', 'same-language', 'hello')
    const draftNaming = post('zh', 'draft', 'alone', { status: 0 })
    const first = post('zh', 'first', 'ALONE')
    const second = post('zh', 'second', 'alone')
    const sitemapRows = sitemapRowsOnce(db)
    const all = sitemapRows(1, Number.MAX_SAFE_INTEGER)
    const rows = new Map(all.map((r) => [r.id, r.partnerSlug]))
    expect(rows.get(hello)).toBe('ni-hao')
    expect(rows.get(niHao)).toBe('hello')
    expect(rows.get(sameLanguage)).toBeNull()
    expect(rows.has(draftNaming)).toBe(false)
    // `alone` names nothing discoverable, so the first post naming it pairs with it.
    expect(rows.get(alone)).toBe('first')
    expect(rows.get(first)).toBe('alone')
    expect(rows.get(second)).toBe('alone')
    expect(partnersOf(db, { language: 'en', slug: 'alone', alternateSlug: 'missing' }).sort()).toEqual([first, second])
    // An id range reads only its own rows and still finds partners outside it.
    expect(sitemapRows(niHao, niHao)).toEqual([
      expect.objectContaining({ id: niHao, language: 'zh', slug: 'ni-hao', partnerSlug: 'hello' }),
    ])
    // Within one snapshot a range is read once; a range past the newest post is the same read.
    expect(sitemapRows(1, second)).toBe(all)
    expect(sitemapRows(1, 50_000)).toBe(all)
  })

  test('shards are id ranges listed while they hold a discoverable post, each with its newest change', () => {
    db.update(posts).set({ updatedAt: '2026-01-01 00:00:00' }).run()
    db.update(posts).set({ updatedAt: '2026-02-01 00:00:00' }).where(eqId(2)).run()
    db.update(posts).set({ status: 0 }).where(eqId(3)).run()
    db.update(posts).set({ status: 0 }).where(eqId(4)).run()
    // Ids 1–7: 5 is a draft, 3 and 4 now too; shards of 2: [1,2] [3,4] [5,6] [7].
    expect(postShards(db, 2)).toEqual([
      { shard: 1, lastmod: '2026-02-01 00:00:00' },
      { shard: 3, lastmod: '2026-01-01 00:00:00' },
      { shard: 4, lastmod: '2026-01-01 00:00:00' },
    ])
    // 4 discoverable posts: at size 4 or 3 every shard counts (the urlset/index threshold), else none.
    expect(thresholdShards(db, 4).sort()).toEqual([1, 2])
    expect(thresholdShards(db, 3).sort()).toEqual([1, 2, 3])
    expect(thresholdShards(db, 2)).toEqual([])
  })

  test('one urlset or an index of shards: known from the highest id while it is within the shard size, else counted', () => {
    const kind = (size: number) =>
      sitemapData(db, { siteUrl: 'https://blog.example.org', sitemapShardSize: size }, sitemapRowsOnce(db), postShardsOnce(db)).kind
    // Discoverable ids 1, 2, 6, 7 (the test above).
    expect(kind(7)).toBe('urlset') // the highest id is 7: at most 7 posts, no count needed
    expect(kind(4)).toBe('urlset') // counted: 4 posts fit
    expect(kind(3)).toBe('index')
    expect(thresholdShards(db, 8)).toEqual([])
  })
})
