import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { contentTypeOf, pathOf, readQuery, requestTarget, spellingsOf, targetOf, type Target } from '../../src/modules/artifacts/paths.ts'
import { copiesOf, COPIES_MIN_BYTES } from '../../src/modules/publishing/copies-rule.ts'
import { requestFile } from '../../src/modules/publishing/files.ts'

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
  test('every target has one file and reads back from it; a spelled-out default is looked up as that file', () => {
    const paths = every.map(pathOf)
    expect(new Set(paths).size).toBe(paths.length)
    for (const target of every) expect(targetOf(pathOf(target))).toEqual(target)
    for (const target of every)
      for (const spelling of spellingsOf(target)) {
        const url = new URL(`http://x${spelling}`)
        expect(requestTarget(url)).toEqual(target)
        expect(requestFile(url.pathname, readQuery(url.pathname, url.search.slice(1)))).toBe(pathOf(target))
      }
  })

  test('the spelled-out default `language=en` is stripped for the four reads it defaults on, and only there, by Caddy as by the API', () => {
    const B = '/api/v1/blog'
    // The Caddyfile's `{read_query}` map, run as Caddy runs it (first matching pattern, else the query).
    const caddyfile = readFileSync(join(import.meta.dir, '../../Caddyfile'), 'utf8')
    const block = /map \{path\}\?\{query\} \{read_query\} \{\n([\s\S]*?)\tdefault \{query\}/.exec(caddyfile)![1]!
    const entries = [...block.matchAll(/^\t\t~(\S+) "([^"]*)"$/gm)].map(([, pattern, out]) => [new RegExp(pattern!), out!] as const)
    expect(entries).toHaveLength(2)
    const caddyQuery = (pathname: string, query: string) => {
      const url = `${pathname}?${query}`
      const hit = entries.find(([pattern]) => pattern.test(url))
      return hit ? url.replace(hit[0], hit[1].replace(/\$\{(\d)\}/g, '$$$1')) : query
    }
    const looked = (pathname: string, query: string) => {
      const file = requestFile(pathname, readQuery(pathname, query))
      expect([pathname, query, caddyQuery(pathname, query)]).toEqual([pathname, query, readQuery(pathname, query)])
      return file
    }
    // The four reads whose language defaults to en (and an author's later pages), slash or none.
    expect(looked(`${B}/posts/hello`, 'language=en')).toBe('api/v1/blog/posts/hello/@')
    expect(looked(`${B}/posts/hello/`, 'language=en')).toBe('api/v1/blog/posts/hello/@')
    expect(looked(`${B}/authors/jane`, 'language=en')).toBe('api/v1/blog/authors/jane/@')
    expect(looked(`${B}/authors/jane/posts`, 'language=en')).toBe('api/v1/blog/authors/jane/posts/@')
    expect(looked(`${B}/authors/jane/posts`, 'language=en&current=2')).toBe('api/v1/blog/authors/jane/posts/@current=2')
    expect(looked(`${B}/rss.xml`, 'language=en')).toBe('api/v1/blog/rss.xml/@')
    // Lists whose language does not default keep it: another artifact than the bare path's.
    for (const list of ['posts', 'tags', 'authors']) expect(looked(`${B}/${list}`, 'language=en')).toBe(`api/v1/blog/${list}/@language=en`)
    // Anything else after it, another order, another case, a second language: as spelled (no such file).
    for (const query of ['language=en&language=zh', 'language=en&current=2', 'language=enx', 'current=1&language=en', 'language=EN'])
      expect(looked(`${B}/posts/hello`, query)).toBe(`api/v1/blog/posts/hello/@${query}`)
    for (const query of ['language=en&current=02', 'language=en&size=12', 'language=en&current=2&size=12'])
      expect(looked(`${B}/authors/jane/posts`, query)).toBe(`api/v1/blog/authors/jane/posts/@${query}`)
    expect(looked(`${B}/posts/hello/more`, 'language=en')).toBe('api/v1/blog/posts/hello/more/@language=en')
    expect(looked('/en/blog/hello', 'language=en')).toBe('en/blog/hello/@language=en')
    // One anchored pass over a hostile path and query (a quadratic one would not end within the test's time).
    const query = `language=en${'&current=1'.repeat(50_000)}`
    const hostile = `${B}/authors/${'a?'.repeat(200_000)}/posts`
    expect([readQuery(hostile, query) === query, caddyQuery(hostile, query) === query]).toEqual([true, true])
  })

  test('a file is named after the canonical URL: defaults left out, keys in the spec order', () => {
    expect(pathOf(every[0]!)).toBe('api/v1/blog/posts/hello-world/@')
    expect(spellingsOf(every[0]!)).toEqual(['/api/v1/blog/posts/hello-world?language=en'])
    expect(spellingsOf(every[1]!)).toEqual([])
    expect(pathOf(every[1]!)).toBe('api/v1/blog/posts/ni-hao/@language=zh')
    expect(pathOf({ kind: 'posts', language: 'zh', filter: { categoryId: 3 }, page: 2 })).toBe(
      'api/v1/blog/posts/@language=zh&current=2&categoryId=3',
    )
    expect(pathOf(every[12]!)).toBe('api/v1/blog/authors/jane/posts/@language=zh&current=3')
    expect(pathOf({ kind: 'rss', language: 'en' })).toBe('api/v1/blog/rss.xml/@')
    expect(pathOf(every[16]!)).toBe('api/v1/blog/sitemap/4.xml/@')
  })

  test('the media type follows the URL', () => {
    expect(contentTypeOf('api/v1/blog/rss.xml/@language=zh')).toBe('application/xml; charset=utf-8')
    expect(contentTypeOf('api/v1/blog/robots.txt/@')).toBe('text/plain; charset=utf-8')
    expect(contentTypeOf('api/v1/blog/posts/@')).toBe('application/json; charset=utf-8')
    expect(contentTypeOf('en/blog/hello/@')).toBe('text/html; charset=utf-8')
    expect(contentTypeOf('@')).toBe('text/html; charset=utf-8')
  })

  test("copies by kind: .gz alone for the API's JSON and the Markdown twins (scripts and agents), .br and .gz for the rest, none when small", () => {
    const site: Target[] = [
      { kind: 'page.post', language: 'en', slug: 'hello' },
      { kind: 'page.twin', language: 'zh', slug: 'ni-hao' },
      { kind: 'page.standalone', language: 'en', slug: 'about' },
      { kind: 'page.standaloneTwin', language: 'en', slug: 'about' },
      { kind: 'page.list', language: 'en', scope: { kind: 'tag', slug: 'speed' }, page: 1 },
      ...(['rss', 'atom', 'json'] as const).map((format): Target => ({
        kind: 'page.feed',
        language: 'en',
        scope: { kind: 'home' },
        format,
      })),
      { kind: 'page.root' },
      { kind: 'page.robots' },
      { kind: 'page.llms' },
      { kind: 'page.sitemap' },
      { kind: 'page.sitemapPosts', shard: 2 },
    ]
    const byType = [...every, ...site].map((target) => {
      const file = pathOf(target)
      const type = contentTypeOf(file).split(';')[0]!
      return [type, copiesOf(file, COPIES_MIN_BYTES).join(' '), copiesOf(file, COPIES_MIN_BYTES - 1).length]
    })
    // The rule reads the path alone; it agrees with the media type every kind is served with.
    for (const [type, copies, small] of byType) {
      expect([type, copies, small]).toEqual([type, ['application/json', 'text/markdown'].includes(type as string) ? '.gz' : '.br .gz', 0])
    }
    expect(new Set(byType.map(([type]) => type)).size).toBeGreaterThan(6)
  })

  test('the file a request names as spelled, as Caddy builds it', () => {
    expect(requestFile('/api/v1/blog/posts', 'language=en&current=2')).toBe('api/v1/blog/posts/@language=en&current=2')
    expect(requestFile('/en/blog/', '')).toBe('en/blog/@')
    expect(requestFile('/', '')).toBe('@')
    expect(requestFile('/api/v1/blog/posts', 'keyword=a%20b')).toBeNull()
  })

  test('files that are not canonical artifact names are junk', () => {
    for (const junk of [
      'api/v1/blog/posts/hello/en.json',
      'api/v1/blog/posts/Hello/@',
      'api/v1/blog/posts/hello/@language=fr',
      'api/v1/blog/posts/@categoryId=1&tagId=2',
      'api/v1/blog/posts/@current=01',
      'api/v1/blog/posts/@current=1',
      'api/v1/blog/posts/@current=2&language=en',
      'api/v1/blog/posts/hello/@.gz',
      'api/v1/blog/robots.txt/@.tmp',
      'other/robots.txt/@',
      'api/v1/blog/sitemap/0.xml/@',
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
    expect(at('posts/hello')).toBe('api/v1/blog/posts/hello/@')
    expect(at('posts/hello?language=en')).toBe('api/v1/blog/posts/hello/@')
    expect(at('posts/hello?language=zh')).toBe('api/v1/blog/posts/hello/@language=zh')
    expect(at('posts')).toBe('api/v1/blog/posts/@')
    expect(at('posts?current=2&size=10&language=en')).toBe('api/v1/blog/posts/@language=en&current=2')
    expect(at('posts?tagId=5&current=1')).toBe('api/v1/blog/posts/@tagId=5')
    expect(at('tags')).toBe('api/v1/blog/tags/@')
    expect(at('tags?language=all')).toBe('api/v1/blog/tags/@language=all')
    expect(at('authors/jane/posts?size=12')).toBe('api/v1/blog/authors/jane/posts/@')
    expect(at('publication-settings')).toBe('api/v1/blog/publication-settings/@')
    expect(at('rss.xml')).toBe('api/v1/blog/rss.xml/@')
    expect(at('sitemap/2.xml')).toBe('api/v1/blog/sitemap/2.xml/@')
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
