import { describe, expect, test } from 'bun:test'
import { RESERVED_PAGE_SLUGS, siteContentType, sitePathOf, siteTargetOfUrl, urlPathOf, type SiteTarget } from './targets.ts'

const TARGETS: [SiteTarget, string, string][] = [
  [{ kind: 'page.root' }, '/', '@'],
  [{ kind: 'page.post', language: 'en', slug: 'hello-world' }, '/en/blog/hello-world', 'en/blog/hello-world/@'],
  [{ kind: 'page.post', language: 'zh', slug: 'ni-hao' }, '/cn/blog/ni-hao', 'cn/blog/ni-hao/@'],
  [{ kind: 'page.twin', language: 'en', slug: 'hello-world' }, '/en/blog/hello-world.md', 'en/blog/hello-world.md/@'],
  [{ kind: 'page.list', language: 'en', scope: { kind: 'home' }, page: 1 }, '/en/', 'en/@'],
  [{ kind: 'page.list', language: 'zh', scope: { kind: 'home' }, page: 3 }, '/cn/page/3/', 'cn/page/3/@'],
  [{ kind: 'page.list', language: 'en', scope: { kind: 'tag', slug: 'seo' }, page: 2 }, '/en/tag/seo/page/2/', 'en/tag/seo/page/2/@'],
  [
    { kind: 'page.feed', language: 'en', scope: { kind: 'author', slug: 'jane' }, format: 'atom' },
    '/en/author/jane/atom.xml',
    'en/author/jane/atom.xml/@',
  ],
  [{ kind: 'page.feed', language: 'zh', scope: { kind: 'home' }, format: 'json' }, '/cn/feed.json', 'cn/feed.json/@'],
  [
    { kind: 'page.product', language: 'en', id: 12, slug: 'studio-headphones' },
    '/en/products/12-studio-headphones',
    'en/products/12-studio-headphones/@',
  ],
  [{ kind: 'page.sitemap' }, '/sitemap.xml', 'sitemap.xml/@'],
  [{ kind: 'page.sitemapPosts', shard: 2 }, '/sitemap/posts-2.xml', 'sitemap/posts-2.xml/@'],
  [{ kind: 'page.sitemapPages', shard: 3 }, '/sitemap/pages-3.xml', 'sitemap/pages-3.xml/@'],
  [{ kind: 'page.llms' }, '/llms.txt', 'llms.txt/@'],
  [{ kind: 'page.standalone', language: 'en', slug: 'about' }, '/en/about', 'en/about/@'],
  [{ kind: 'page.standalone', language: 'zh', slug: 'guanyu' }, '/cn/guanyu', 'cn/guanyu/@'],
  [{ kind: 'page.standaloneTwin', language: 'en', slug: 'about' }, '/en/about.md', 'en/about.md/@'],
  [{ kind: 'page.sitemapStandalone' }, '/sitemap/standalone.xml', 'sitemap/standalone.xml/@'],
]

describe('site targets', () => {
  test('URL, file and target map into each other', () => {
    for (const [target, url, file] of TARGETS) {
      expect(urlPathOf(target)).toBe(url)
      expect(sitePathOf(target)).toBe(file)
      expect(siteTargetOfUrl(url)).toEqual(target)
    }
  })

  test('a trailing slash is optional, as Caddy joins paths; other spellings are not artifacts', () => {
    expect(siteTargetOfUrl('/en')).toEqual({ kind: 'page.list', language: 'en', scope: { kind: 'home' }, page: 1 })
    for (const url of [
      '/en/page/1/',
      '/en/page/01/',
      '/EN/',
      '/en/blog/Hello',
      '/en/blog/a/b',
      '/de/',
      '/en/blog/.hidden',
      '/en/tag/',
      '/en/products/0-x',
      '/sitemap/pages.xml',
      '/sitemap/pages-0.xml',
      '/sitemap/pages-01.xml',
      '/api/v1/blog/posts',
      '/en/About',
      '/en/about/x',
    ])
      expect({ url, target: siteTargetOfUrl(url) }).toEqual({ url, target: null })
  })

  test("a standalone page never takes a path the site answers itself (docs/pages.md, 'URLs')", () => {
    for (const slug of RESERVED_PAGE_SLUGS) expect(siteTargetOfUrl(`/en/${slug}`)?.kind).not.toBe('page.standalone')
    expect(siteTargetOfUrl('/en/rss.xml')?.kind).toBe('page.feed')
    expect(siteTargetOfUrl('/en/page/2')?.kind).toBe('page.list')
    expect(siteTargetOfUrl('/en/blog/about')?.kind).toBe('page.post')
  })

  test('media types follow the URL', () => {
    expect(siteContentType('en/blog/x/@')).toBe('text/html; charset=utf-8')
    expect(siteContentType('en/rss.xml/@')).toBe('application/rss+xml; charset=utf-8')
    expect(siteContentType('en/tag/a/atom.xml/@')).toBe('application/atom+xml; charset=utf-8')
    expect(siteContentType('cn/feed.json/@')).toBe('application/feed+json; charset=utf-8')
    expect(siteContentType('sitemap.xml/@')).toBe('application/xml; charset=utf-8')
    expect(siteContentType('en/blog/x.md/@')).toBe('text/markdown; charset=utf-8')
    expect(siteContentType('llms.txt/@')).toBe('text/plain; charset=utf-8')
  })
})
