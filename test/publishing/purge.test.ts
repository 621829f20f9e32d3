import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { verify } from '../../src/modules/webhooks/sign.ts'
import { databaseAtFirstMigration } from '../support/first-migration.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, SECRET, startReceiver, TEST_ENV, waitForLog, type Received } from '../webhooks/receiver.ts'

// Exact purges end to end: a real server renders, a real receiver takes the events and the purge endpoint's calls.
setDefaultTimeout(60_000)

const SITE = 'https://blog.example.com'
const AUTH = 'Bearer cdn-test-token'
// The purge endpoint fails its first call: the worker must try that delivery again.
const receiver = startReceiver(
  (request, nth) =>
    new Response(request.path === '/endpoint' && nth === 1 ? 'busy' : 'ok', {
      status: request.path === '/endpoint' && nth === 1 ? 500 : 200,
    }),
)
const ENV = { ...TEST_ENV, SITE_URL: SITE, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_DELAYS: '200ms,200ms' }

/** The reads whose language defaults to en, which Caddy also answers as `?language=en…` from the same file (the Caddyfile's `{read_query}`). */
const DEFAULTING = /^\/api\/v1\/blog\/(posts\/[^/]+|authors\/[^/]+|authors\/[^/]+\/posts|rss\.xml)$/

/**
 * What a CDN could hold from CACHE_DIR: every file Caddy would serve (not the compressed copies),
 * as the URLs that read it, with its bytes. Written independently of the server's own mapping
 * (purge.ts): `{path}/@{query}` read back as `{path}?{query}`, and for the defaulting reads
 * without a language also as `{path}?language=en[&{query}]`.
 */
function servedUrls(cacheDir: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const entry of readdirSync(cacheDir, { recursive: true, withFileTypes: true })) {
    const file = relative(cacheDir, join(entry.parentPath, entry.name))
    const at = file === '@' ? 0 : file.lastIndexOf('/@') + 1
    if (at === 0 && file !== '@') continue
    if (/\.(br|gz)$/.test(file) || !entry.isFile()) continue
    const query = file.slice(at + 1)
    const path = `/${file.slice(0, Math.max(0, at - 1))}`
    const bytes = readFileSync(join(cacheDir, file), 'base64')
    found.set(`${SITE}${path}${query ? `?${query}` : ''}`, bytes)
    if (DEFAULTING.test(path) && !query.startsWith('language=')) found.set(`${SITE}${path}?language=en${query ? `&${query}` : ''}`, bytes)
  }
  return found
}

/** URLs whose bytes differ between two snapshots, or that came or went. */
function changedBetween(before: Map<string, string>, after: Map<string, string>): string[] {
  const urls = new Set([...before.keys(), ...after.keys()])
  return [...urls].filter((url) => before.get(url) !== after.get(url)).sort()
}

/** A purge list with the second trailing-slash spelling of pages folded into the first, sorted. */
const folded = (urls: readonly string[]) => [...new Set(urls.map((u) => (u === `${SITE}/` ? u : u.replace(/\/$/, ''))))].sort()
const purgedBy = (requests: readonly Received[]) => requests.flatMap((r) => JSON.parse(r.body).urls as string[])

describe('exact purges (PURGE_URL generic, blog.cache.purge)', () => {
  let folio: Folio
  let token: string
  let taxonomy: { categoryId: number; authorId: number }

  beforeAll(async () => {
    folio = await startFolio({ ...ENV, PURGE_URL: receiver.url('/endpoint'), PURGE_AUTH_HEADER: `Authorization: ${AUTH}` })
    token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
    taxonomy = await seedTaxonomy(folio, token)
    await addReceiver(folio, token, { url: receiver.url('/events'), events: ['blog.cache.purge'] })
    await addReceiver(folio, token, { url: receiver.url('/posts'), events: ['blog.*'] })
  })
  afterAll(async () => {
    await folio?.dispose()
  })

  /** Renders done, every delivery ended; then the snapshot and the event count from here on. */
  async function settled() {
    await folio.settled()
    await waitForLog(folio, token, (records) => records.every((r) => r.status === 'delivered' || r.status === 'failed'))
    return { disk: servedUrls(folio.cacheDir), events: receiver.on('/events').length, endpoint: receiver.on('/endpoint').length }
  }

  /** Runs `act`, then the purge events and endpoint calls it caused and what changed on disk. */
  async function purgesOf(act: () => Promise<unknown>) {
    const before = await settled()
    await act()
    const after = await settled()
    const events = receiver.on('/events').slice(before.events)
    return { events, endpoint: receiver.on('/endpoint').slice(before.endpoint), changed: changedBetween(before.disk, after.disk) }
  }

  let published: { id: number; slug: string }
  let other: { id: number; slug: string }
  let otherBody: Record<string, unknown>

  test('one publish purges exactly its footprint, signed, in one pass list; blog.* receivers do not get it', async () => {
    otherBody = publishablePost(taxonomy.categoryId, taxonomy.authorId)
    other = await publishNewPost(folio, token, otherBody)
    const posts = receiver.on('/posts').length
    const { events, endpoint, changed } = await purgesOf(async () => {
      published = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    })
    expect(events.length).toBeGreaterThan(0)
    const urls = purgedBy(events)
    expect(new Set(urls).size).toBe(urls.length)
    // Exactly the files whose bytes changed on disk, each in every spelling a CDN may hold.
    expect(folded(urls)).toEqual(changed)
    const slug = published.slug
    for (const url of [
      `/api/v1/blog/posts/${slug}`,
      `/api/v1/blog/posts/${slug}?language=en`,
      `/en/blog/${slug}`,
      `/en/blog/${slug}/`,
      `/en/blog/${slug}.md`,
      '/api/v1/blog/posts',
      '/en/',
      '/en',
      '/en/rss.xml',
      '/api/v1/blog/rss.xml',
      '/sitemap/posts-1.xml',
      '/llms.txt',
    ])
      expect(urls).toContain(`${SITE}${url}`)
    // The post just older than it links to it as "next" (site/neighbours.ts), so its page changed;
    // its read and its Markdown twin did not.
    expect(urls).toContain(`${SITE}/en/blog/${other.slug}`)
    expect(urls).not.toContain(`${SITE}/en/blog/${other.slug}.md`)
    expect(urls).not.toContain(`${SITE}/api/v1/blog/posts/${other.slug}`)
    for (const event of events) {
      const payload = JSON.parse(event.body)
      expect(event.headers.get('x-folio-event')).toBe('blog.cache.purge')
      expect(verify(SECRET, event.headers.get('x-folio-signature'), event.body)).toBe(true)
      expect(Object.keys(payload).sort()).toEqual(['event', 'id', 'occurredAt', 'part', 'parts', 'passId', 'urls'])
      expect(payload.urls.length).toBeLessThanOrEqual(100)
      expect(payload.part).toBeLessThanOrEqual(payload.parts)
    }
    // The purge endpoint got the same URLs, in the generic body, with the configured header.
    expect(purgedBy(endpoint).sort()).toEqual([...urls].sort())
    for (const call of endpoint) {
      expect(call.headers.get('authorization')).toBe(AUTH)
      expect(call.headers.has('x-folio-signature')).toBe(false)
      expect(Object.keys(JSON.parse(call.body))).toEqual(['urls'])
    }
    // The post events' wildcard receiver heard of the publish only.
    await receiver.waitFor('/posts', posts + 1)
    expect(receiver.on('/posts').map((r) => r.headers.get('x-folio-event'))).not.toContain('blog.cache.purge')
  })

  test('the purge endpoint is retried after a 500, with the same body', async () => {
    // The first call failed; its delivery is tried again (other purges may come between the two).
    const [first, ...later] = receiver.on('/endpoint')
    const second = later.find((call) => call.headers.get('x-folio-delivery') === first!.headers.get('x-folio-delivery'))
    expect(second?.body).toBe(first!.body)
    const log = await waitForLog(folio, token, (records) => records.some((r) => r.receiverUrl === receiver.url('/endpoint')))
    const retried = log.find((r) => r.id === Number(first!.headers.get('x-folio-delivery')))
    expect(retried).toMatchObject({ event: 'blog.cache.purge', status: 'delivered', attempts: 2, postId: null })
    // Not a receiver an administrator manages: not listed.
    const receivers = (await folio.call('GET', '/api/admin/blog/webhooks', { token })).body.data as { url: string }[]
    expect(receivers.map((r) => r.url)).not.toContain(receiver.url('/endpoint'))
  })

  test('a re-save of the same fields purges exactly what its new version and update time changed', async () => {
    // A save is never a no-op: `version` and `updateTime` move, and with them the post's read,
    // the lists, feeds and sitemaps that show them; its Markdown twin, which shows neither, stays.
    const { events, changed } = await purgesOf(async () => {
      const saved = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...otherBody, id: other.id, status: 1 } })
      expect(saved.body.data.version).toBe(3)
    })
    const urls = purgedBy(events)
    expect(folded(urls)).toEqual(changed)
    expect(urls).toContain(`${SITE}/api/v1/blog/posts/${other.slug}`)
    expect(urls).not.toContain(`${SITE}/en/blog/${other.slug}.md`)
  })

  test('bytes that were already there are not purged', async () => {
    // A rebuild renders every artifact again; none differs from the file it would replace.
    const { events, endpoint, changed } = await purgesOf(async () => {
      const rebuilt = await folio.cli('rebuild')
      expect(rebuilt.code).toBe(0)
    })
    expect(changed).toEqual([])
    expect(events).toEqual([])
    expect(endpoint).toEqual([])
  })

  test('a delete purges the URLs it removed and the lists it left', async () => {
    const { events, changed } = await purgesOf(() => folio.call('GET', `/api/v1/blog/posts/delete?id=${published.id}`, { token }))
    const urls = purgedBy(events)
    expect(folded(urls)).toEqual(changed)
    for (const url of [
      `/api/v1/blog/posts/${published.slug}`,
      `/en/blog/${published.slug}`,
      `/en/blog/${published.slug}.md`,
      '/en/rss.xml',
    ])
      expect(urls).toContain(`${SITE}${url}`)
    expect(servedUrls(folio.cacheDir).has(`${SITE}/en/blog/${published.slug}`)).toBe(false)
  })
})

describe('PURGE_FORMAT=cloudflare and PURGE_URL checks', () => {
  test('the endpoint gets the purge-by-URL body {"files": [...]}', async () => {
    const folio = await startFolio({ ...ENV, PURGE_URL: receiver.url('/cloudflare'), PURGE_FORMAT: 'cloudflare' })
    try {
      // The first start renders every artifact: all of them are new bytes.
      const [call] = await receiver.waitFor('/cloudflare', 1)
      const body = JSON.parse(call!.body)
      expect(Object.keys(body)).toEqual(['files'])
      expect(body.files).toContain(`${SITE}/api/v1/blog/publication-settings`)
      expect(body.files.length).toBeLessThanOrEqual(100)
    } finally {
      await folio.dispose()
    }
  })

  test('upgrading: receivers saved before stay webhooks; the purge endpoint joins them, neither listed nor savable', async () => {
    const base = mkdtempSync(join(tmpdir(), 'folio-purge-upgrade-'))
    const dataDir = join(base, 'data')
    mkdirSync(dataDir)
    const db = databaseAtFirstMigration(dataDir, base)
    db.$client.run("insert into webhook_receivers (url, secret, events) values ('https://hooks.example.com/folio', ?, 'blog.*')", [SECRET])
    db.$client.close()
    const folio = await startFolio({ ...ENV, DATA_DIR: dataDir, PURGE_URL: receiver.url('/upgraded') })
    try {
      const token = await folio.token('blog:admin')
      const listed = (await folio.call('GET', '/api/admin/blog/webhooks', { token })).body.data as {
        id: number
        url: string
        events: string[]
      }[]
      expect(listed.map((r) => [r.id, r.url, r.events])).toEqual([[1, 'https://hooks.example.com/folio', ['blog.*']]])
      const body = { id: 2, url: 'https://hooks.example.com/other', events: ['blog.cache.purge'] }
      const saved = await folio.call('POST', '/api/admin/blog/webhooks/save', { token, body })
      expect([saved.status, saved.body.code]).toEqual([400, 'BLOG_NOT_FOUND'])
      // The start rendered the old database's artifacts: the endpoint heard of them.
      await receiver.waitFor('/upgraded', 1)
    } finally {
      await folio.dispose()
      rmSync(base, { recursive: true, force: true })
    }
  })

  test('a private PURGE_URL stops the start with one line, unless WEBHOOK_ALLOW_PRIVATE=1', async () => {
    const started = startFolio({ SITE_URL: SITE, PURGE_URL: 'http://127.0.0.1:9/purge', WEBHOOK_ALLOW_PRIVATE: '0' })
    await expect(started).rejects.toThrow(/PURGE_URL: 127\.0\.0\.1 is a loopback, private, link-local or reserved address/)
  })
})
