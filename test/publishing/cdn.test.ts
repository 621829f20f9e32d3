import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'
import { artifactCacheControl } from '../../src/modules/publishing/cdn-cache.ts'
import { ASSETS } from '../../src/modules/site/assets.ts'
import { startCaddy } from '../support/caddy.ts'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'
import { fromDisk, startStack, type Stack } from './stack.ts'

// CDN-friendly headers: Caddy (from disk) and the API (from memory) answer an artifact alike.
const CDN = { CDN_MAX_AGE: '600', CDN_STALE_WHILE_REVALIDATE: '30' }
const EXPECTED = 'public, max-age=0, must-revalidate, s-maxage=600, stale-while-revalidate=30'

let s: Stack
let slug: string
beforeAll(async () => {
  s = await startStack(CDN)
  slug = (await publishNewPost(s.folio, s.token, publishablePost(s.categoryId, s.authorId))).slug
  // Copies left for later would give Caddy's answer another ETag (the copy's) between two reads.
  await s.folio.settled()
}, 60_000)
afterAll(async () => {
  await s?.dispose()
})

const artifacts = () => [
  '/api/v1/blog/categories',
  '/api/v1/blog/posts',
  `/api/v1/blog/posts/${slug}`,
  `/api/v1/blog/posts/${slug}?language=en`,
  '/api/v1/blog/rss.xml',
  `/en/blog/${slug}`,
  `/en/blog/${slug}.md`,
  '/en/',
  '/en/feed.json',
  '/sitemap.xml',
  '/llms.txt',
]

describe('Cache-Control of artifacts', () => {
  test('Caddy and the API answer every artifact with the same CDN-friendly value, 304s included', async () => {
    expect(artifactCacheControl(loadConfig(CDN).cdn)).toBe(EXPECTED)
    for (const path of artifacts()) {
      const caddy = await s.viaCaddy(path)
      const api = await s.viaApi(path)
      expect({ path, fromDisk: fromDisk(caddy), status: [caddy.status, api.status] }).toEqual({ path, fromDisk: true, status: [200, 200] })
      expect({ path, caddy: caddy.headers.get('cache-control'), api: api.headers.get('cache-control') }).toEqual({
        path,
        caddy: EXPECTED,
        api: EXPECTED,
      })
      for (const [get, etag] of [
        [s.viaCaddy, caddy.headers.get('etag')!],
        [s.viaApi, api.headers.get('etag')!],
      ] as const) {
        const again = await get(path, { 'if-none-match': etag })
        expect({ path, status: again.status, cacheControl: again.headers.get('cache-control') }).toEqual({
          path,
          status: 304,
          cacheControl: EXPECTED,
        })
      }
    }
  })

  test('another spelling of a read, no purge names it: revalidated by every cache; token answers stay private', async () => {
    for (const get of [s.viaCaddy, s.viaApi]) {
      const spelled = await get('/api/v1/blog/posts?current=1')
      expect([spelled.status, spelled.headers.get('cache-control')]).toEqual([200, 'public, no-cache'])
      const tracked = await get(`/en/blog/${slug}?utm_source=mail`)
      expect([tracked.status, tracked.headers.get('cache-control')]).toEqual([200, 'public, no-cache'])
      const withToken = await get('/api/v1/blog/categories', { authorization: `Bearer ${s.token}` })
      expect(withToken.headers.get('cache-control')).toBe('private, no-store')
      const asset = await get(`/assets/${ASSETS.theme.file}`)
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
  })

  test("the Caddyfile's defaults are the API's defaults", async () => {
    const caddy = await startCaddy({ apiUrl: s.folio.url, cacheDir: s.folio.cacheDir })
    try {
      const answer = await fetch(`${caddy.url}/api/v1/blog/categories`)
      expect(fromDisk(answer)).toBe(true)
      expect(answer.headers.get('cache-control')).toBe(artifactCacheControl(loadConfig({}).cdn))
    } finally {
      await caddy.stop()
    }
  })
})
