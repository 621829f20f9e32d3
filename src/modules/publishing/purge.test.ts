import { describe, expect, test } from 'bun:test'
import { contentTypeOf, pathOf, spellingsOf, type Target } from '../artifacts/paths.ts'
import type { ArtifactChange } from './publisher.ts'
import { redirectArtifacts } from '../redirects/kind.ts'
import { catalogue } from './catalogue.ts'
import { purgeUrls } from './purge.ts'

const SITE = 'https://blog.example.com'
const change = (target: Target, outcome: ArtifactChange['outcome'] = 'written'): ArtifactChange => ({
  path: pathOf(target),
  target,
  spellings: spellingsOf(target),
  contentType: contentTypeOf(pathOf(target)),
  outcome,
  served: true,
})

describe('purgeUrls', () => {
  test('a JSON read with its spelled-out default (no file of its own), on SITE_URL', () => {
    expect(purgeUrls(SITE, [change({ kind: 'post', language: 'en', slug: 'hello' })])).toEqual([
      `${SITE}/api/v1/blog/posts/hello`,
      `${SITE}/api/v1/blog/posts/hello?language=en`,
    ])
    expect(purgeUrls(SITE, [change({ kind: 'authorPosts', language: 'en', slug: 'ann', page: 2 })])).toEqual([
      `${SITE}/api/v1/blog/authors/ann/posts?current=2`,
      `${SITE}/api/v1/blog/authors/ann/posts?language=en&current=2`,
    ])
    expect(purgeUrls(SITE, [change({ kind: 'post', language: 'zh', slug: 'ni-hao' }, 'removed')])).toEqual([
      `${SITE}/api/v1/blog/posts/ni-hao?language=zh`,
    ])
  })

  test('copies written for bytes already served, and artifacts absent before and after, purge nothing', () => {
    const post: Target = { kind: 'post', language: 'en', slug: 'hello' }
    expect(purgeUrls(SITE, [change(post, 'copied'), change(post, 'absent')])).toEqual([])
  })

  test('list reads keep their canonical query', () => {
    const target: Target = { kind: 'posts', language: 'zh', filter: { categoryId: 3 }, page: 2 }
    expect(purgeUrls(SITE, [change(target)])).toEqual([`${SITE}/api/v1/blog/posts?language=zh&current=2&categoryId=3`])
  })

  test('pages in both trailing-slash spellings; feeds, twins, shards and text files as named', () => {
    const urls = purgeUrls(SITE, [
      change({ kind: 'page.post', language: 'en', slug: 'hello' }),
      change({ kind: 'page.list', language: 'en', scope: { kind: 'category', slug: 'guides' }, page: 1 }),
      change({ kind: 'page.root' }),
      change({ kind: 'page.twin', language: 'en', slug: 'hello' }),
      change({ kind: 'page.feed', language: 'en', scope: { kind: 'home' }, format: 'atom' }),
      change({ kind: 'page.sitemapPosts', shard: 1 }),
      change({ kind: 'page.llms' }),
      change({ kind: 'sitemapShard', shard: 2 }),
    ])
    expect(urls).toEqual([
      `${SITE}/en/blog/hello`,
      `${SITE}/en/blog/hello/`,
      `${SITE}/en/category/guides`,
      `${SITE}/en/category/guides/`,
      `${SITE}/`,
      `${SITE}/en/blog/hello.md`,
      `${SITE}/en/atom.xml`,
      `${SITE}/sitemap/posts-1.xml`,
      `${SITE}/llms.txt`,
      `${SITE}/api/v1/blog/sitemap/2.xml`,
    ])
  })

  test('a removed file no target claims (junk) is named by its own URL; each URL once', () => {
    const junk: ArtifactChange = {
      path: 'api/v1/blog/old/@',
      target: null,
      spellings: [],
      contentType: 'application/octet-stream',
      outcome: 'removed',
      served: true,
    }
    const settings = change({ kind: 'settings' })
    expect(purgeUrls(SITE, [junk, settings, settings])).toEqual([`${SITE}/api/v1/blog/old`, `${SITE}/api/v1/blog/publication-settings`])
  })

  test("a redirect shard's index is read by the servers alone: written or removed, no purge names it", () => {
    const kinds = catalogue([redirectArtifacts()])
    const index = '_redirects/2013/01/11/@lo'
    const changes = (['written', 'removed'] as const).map((outcome) => kinds.change(index, kinds.parse(index), outcome))
    expect(changes.map((c) => c.served)).toEqual([false, false])
    expect(purgeUrls(SITE, changes)).toEqual([])
  })

  test('nothing changed, nothing to purge', () => {
    expect(purgeUrls(SITE, [])).toEqual([])
  })
})
