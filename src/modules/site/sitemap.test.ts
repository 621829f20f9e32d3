import { describe, expect, test } from 'bun:test'
import { pageKey, pagesShardsOf } from './sitemap.ts'

describe('pages sitemap keys', () => {
  test('home pages come first, then each row id takes one slot per kind, one key per language', () => {
    expect([pageKey('home', 0, 'en'), pageKey('home', 0, 'zh')]).toEqual([1, 2])
    expect([pageKey('category', 1, 'en'), pageKey('tag', 1, 'en'), pageKey('author', 1, 'en'), pageKey('product', 1, 'zh')]).toEqual([
      3, 5, 7, 10,
    ])
    expect(pageKey('category', 2, 'en')).toBe(11)
  })

  test('keys never collide, so a shard of n keys holds at most n URLs', () => {
    const keys = new Set<number>()
    for (const kind of ['category', 'tag', 'author', 'product'] as const)
      for (let id = 1; id <= 50; id++) for (const language of ['en', 'zh'] as const) keys.add(pageKey(kind, id, language))
    expect(keys.size).toBe(4 * 50 * 2)
    expect(keys.has(1) || keys.has(2)).toBe(false)
  })

  test('a row names the shards of both its languages (an author may change language)', () => {
    expect(pagesShardsOf('author', 1, 2)).toEqual([{ kind: 'page.sitemapPages', shard: 4 }])
    expect(pagesShardsOf('author', 1, 1)).toEqual([
      { kind: 'page.sitemapPages', shard: 7 },
      { kind: 'page.sitemapPages', shard: 8 },
    ])
    expect(pagesShardsOf('product', 9, 50_000)).toEqual([{ kind: 'page.sitemapPages', shard: 1 }])
  })
})
