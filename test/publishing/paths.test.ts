import { describe, expect, test } from 'bun:test'
import { pathOf, requestTarget, targetOf, type Target } from '../../src/modules/publishing/paths.ts'

const every: Target[] = [
  { kind: 'post', language: 'en', slug: 'hello-world' },
  { kind: 'post', language: 'zh', slug: 'ni-hao' },
  { kind: 'posts', language: null, filter: null, page: 1 },
  { kind: 'posts', language: 'zh', filter: { categoryId: 3 }, page: 1 },
  { kind: 'posts', language: 'en', filter: { tagId: 12 }, page: 1 },
  { kind: 'posts', language: null, filter: { authorId: 7 }, page: 1 },
  { kind: 'categories' },
  { kind: 'tags', language: null },
  { kind: 'tags', language: 'all' },
  { kind: 'authors', language: 'en' },
  { kind: 'authors', language: null },
  { kind: 'author', language: 'en', slug: 'jane' },
  { kind: 'authorPosts', language: 'zh', slug: 'jane', page: 3 },
  { kind: 'settings' },
  { kind: 'rss', language: 'zh' },
  { kind: 'sitemap' },
  { kind: 'sitemapShard', shard: 4 },
  { kind: 'robots' },
  { kind: 'openapi' },
]

describe('artifact paths', () => {
  test('every target has one file and reads back from it', () => {
    const paths = every.map(pathOf)
    expect(new Set(paths).size).toBe(paths.length)
    for (const target of every) expect(targetOf(pathOf(target))).toEqual(target)
  })

  test('files that are not canonical artifact names are junk', () => {
    for (const junk of [
      'api/v1/blog/posts/Hello/en.json',
      'api/v1/blog/posts/hello/fr.json',
      'api/v1/blog/posts/_list/en/c1-t2-a/1.json',
      'api/v1/blog/posts/_list/en/c-t-a/01.json',
      'api/v1/blog/posts/hello/en.json.gz',
      'api/v1/blog/robots.txt.tmp',
      'other/robots.txt',
      'api/v1/blog/sitemap/0.xml',
    ])
      expect(targetOf(junk)).toBeNull()
  })
})

describe('which artifact answers a request (the Caddyfile mirrors this)', () => {
  const at = (path: string) => {
    const target = requestTarget(new URL(`http://x/api/v1/blog/${path}`))
    return target && pathOf(target)
  }

  test('defaults are applied: language en on details, no filter on lists, page 1', () => {
    expect(at('posts/hello')).toBe('api/v1/blog/posts/hello/en.json')
    expect(at('posts/hello?language=zh')).toBe('api/v1/blog/posts/hello/zh.json')
    expect(at('posts')).toBe('api/v1/blog/posts/_list/any/c-t-a/1.json')
    expect(at('posts?current=2&size=10&language=en')).toBe('api/v1/blog/posts/_list/en/c-t-a/2.json')
    expect(at('posts?tagId=5')).toBe('api/v1/blog/posts/_list/any/c-t5-a/1.json')
    expect(at('tags')).toBe('api/v1/blog/tags/any.json')
    expect(at('tags?language=all')).toBe('api/v1/blog/tags/all.json')
    expect(at('authors/jane/posts?size=12')).toBe('api/v1/blog/authors/jane/posts/en/1.json')
    expect(at('publication-settings')).toBe('api/v1/blog/publication-settings.json')
    expect(at('rss.xml')).toBe('api/v1/blog/rss/en.xml')
    expect(at('sitemap/2.xml')).toBe('api/v1/blog/sitemap/2.xml')
  })

  test('anything not pre-rendered goes to the API', () => {
    for (const path of [
      'posts?keyword=static',
      'posts?size=20',
      'posts?current=0',
      'posts?categoryId=1&tagId=2',
      'posts?language=en&language=zh',
      'posts?utm_source=x',
      'posts/hello?language=fr',
      'posts/Hello',
      'posts/operate?id=1&status=1',
      'posts/delete?id=1',
      'posts/1/engagement',
      'authors/jane/posts?size=10',
      'categories?x=1',
      'tags?language=de',
      'rss.xml?language=',
      'sitemap/0.xml',
    ])
      expect(at(path)).toBeNull()
  })
})
