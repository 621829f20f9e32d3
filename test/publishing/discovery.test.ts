import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startCaddy } from '../support/caddy.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { startReceiver, TEST_ENV, waitForLog, type Received } from '../webhooks/receiver.ts'

// IndexNow and WebSub end to end (docs/discovery.md): a real server renders, one real receiver on
// loopback plays the IndexNow endpoint and the hub; then the same data restarted without either.
setDefaultTimeout(60_000)

const SITE = 'https://blog.example.com'
const KEY = 'folio-discovery-key-0123'
// IndexNow fails its first call: the worker must send that delivery again.
const receiver = startReceiver((request, nth) =>
  request.path === '/indexnow' && nth === 1 ? new Response('busy', { status: 503 }) : new Response('ok', { status: 202 }),
)
const ON = {
  ...TEST_ENV,
  SITE_URL: SITE,
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_DELAYS: '200ms,200ms',
  INDEXNOW_KEY: KEY,
  INDEXNOW_ENDPOINT: receiver.url('/indexnow'),
  WEBSUB_HUB: receiver.url('/hub'),
}

const submitted = (calls: readonly Received[]) => calls.flatMap((call) => JSON.parse(call.body).urlList as string[])
const pinged = (calls: readonly Received[]) => calls.flatMap((call) => new URLSearchParams(call.body).getAll('hub.url'))

describe('IndexNow and WebSub', () => {
  let folio: Folio
  let token: string
  let taxonomy: { categoryId: number; authorId: number }

  /** Renders done and every delivery ended; then how many calls each endpoint has had. */
  async function settled() {
    await folio.settled()
    await waitForLog(folio, token, (records) => records.every((r) => r.status === 'delivered' || r.status === 'failed'))
    return { indexnow: receiver.on('/indexnow').length, hub: receiver.on('/hub').length }
  }

  beforeAll(async () => {
    folio = await startFolio(ON)
    token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
    taxonomy = await seedTaxonomy(folio, token)
  })
  afterAll(async () => {
    await folio?.dispose()
    receiver.stop()
  })

  test('a publish submits its page and the lists it changed, with the key; the hub is pinged for each changed feed', async () => {
    const before = await settled()
    const post = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const after = await settled()
    const calls = receiver.on('/indexnow').slice(before.indexnow, after.indexnow)
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) {
      expect(call.headers.get('content-type')).toBe('application/json; charset=utf-8')
      const body = JSON.parse(call.body)
      expect(Object.keys(body)).toEqual(['host', 'key', 'keyLocation', 'urlList'])
      expect(body).toMatchObject({ host: 'blog.example.com', key: KEY, keyLocation: `${SITE}/${KEY}.txt` })
      expect(body.urlList.length).toBeLessThanOrEqual(10_000)
      expect(new Set(body.urlList).size).toBe(body.urlList.length)
    }
    const urls = submitted(calls)
    expect(urls).toContain(`${SITE}/en/blog/${post.slug}`)
    expect(urls).toContain(`${SITE}/en/`)
    expect(urls.some((url) => url.startsWith(`${SITE}/en/category/`) && url.endsWith('/'))).toBe(true)
    // Public HTML pages only: no API reads, Markdown twins, feeds, sitemaps or other files.
    for (const url of urls) {
      expect(url.startsWith(`${SITE}/`)).toBe(true)
      expect(url).not.toMatch(/\/api\/|\.md$|\.xml$|\.json$|\.txt$|_redirects|\?/)
    }
    const pings = receiver.on('/hub').slice(before.hub, after.hub)
    for (const ping of pings) {
      expect(ping.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
      expect(new URLSearchParams(ping.body).get('hub.mode')).toBe('publish')
    }
    const feeds = pinged(pings)
    for (const feed of ['/en/rss.xml', '/en/atom.xml', '/en/feed.json']) expect(feeds).toContain(`${SITE}${feed}`)
    expect(feeds).not.toContain(`${SITE}/api/v1/blog/rss.xml`)
    expect(feeds.every((url) => /\/(rss\.xml|atom\.xml|feed\.json)$/.test(url))).toBe(true)
  })

  test('a failing IndexNow endpoint is retried with the same body', async () => {
    // Passes may overlap at the first start: the retry is the call of the same delivery, not the next call.
    const [first, ...rest] = receiver.on('/indexnow')
    const id = first!.headers.get('x-folio-delivery')
    const again = rest.filter((call) => call.headers.get('x-folio-delivery') === id)
    expect(again.length).toBe(1)
    expect(again[0]!.body).toBe(first!.body)
    const log = await waitForLog(folio, token, (records) => records.some((r) => r.id === Number(id)))
    expect(log.find((r) => r.id === Number(id))).toMatchObject({
      event: 'blog.indexnow.submit',
      status: 'delivered',
      attempts: 2,
    })
  })

  test('the key file is served at the site root, by Bun and through Caddy; the feeds name the hub', async () => {
    const caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
    try {
      const hub = receiver.url('/hub')
      for (const origin of [folio.url, caddy.url]) {
        const key = await fetch(`${origin}/${KEY}.txt`)
        expect(key.status).toBe(200)
        expect(key.headers.get('content-type')).toBe('text/plain; charset=utf-8')
        expect(await key.text()).toBe(KEY)
        const rss = await (await fetch(`${origin}/en/rss.xml`)).text()
        expect(rss).toContain(`<atom:link href="${hub}" rel="hub"/>`)
        expect(rss).toContain(`<atom:link href="${SITE}/en/rss.xml" rel="self"`)
        const atom = await (await fetch(`${origin}/en/atom.xml`)).text()
        expect(atom).toContain(`<link rel="hub" href="${hub}"/>`)
        const json = await (await fetch(`${origin}/en/feed.json`)).json()
        expect(json.hubs).toEqual([{ type: 'WebSub', url: hub }])
      }
    } finally {
      await caddy.stop()
    }
  })

  test('unconfigured: no key file, no hub in the feeds, nothing sent', async () => {
    await settled()
    await folio.stop()
    delete folio.env.INDEXNOW_KEY
    delete folio.env.WEBSUB_HUB
    await folio.restart()
    const before = await settled()
    await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const after = await settled()
    expect(after).toEqual(before)
    expect((await fetch(`${folio.url}/${KEY}.txt`)).status).toBe(404)
    const rss = await (await fetch(`${folio.url}/en/rss.xml`)).text()
    expect(rss).not.toContain('rel="hub"')
    expect((await (await fetch(`${folio.url}/en/feed.json`)).json()).hubs).toBeUndefined()
  })
})
