import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import urls from './corpus/urls.json'
import { loadConfig } from '../../src/config.ts'
import { artifactCacheControl } from '../../src/modules/publishing/cdn-cache.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startCaddy } from '../support/caddy.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { SECRET, startReceiver, TEST_ENV, waitForLog } from '../webhooks/receiver.ts'

setDefaultTimeout(60_000)

let folio: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
const receiver = startReceiver()

beforeAll(async () => {
  // The default: receivers on private addresses are refused.
  folio = await startFolio({ ...TEST_ENV, WEBHOOK_ALLOW_PRIVATE: '0' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

const post = (path: string, body: unknown) => folio.call('POST', path, { token, body })
const fieldsOf = (response: { body: any }) => (response.body.data?.errors ?? []).map((e: { field: string }) => e.field)

describe('every URL field of every write passes the shared rule (item 11)', () => {
  test.each(urls.links.refused)('author socialLinks refuse %p in every shape', async (url) => {
    for (const socialLinks of [{ x: url }, [url], [{ label: 'x', url }]]) {
      const answer = await post('/api/v1/blog/authors/save', { name: 'Mallory', language: 'en', socialLinks: JSON.stringify(socialLinks) })
      expect([answer.status, fieldsOf(answer)]).toEqual([400, ['socialLinks']])
    }
  })
  test('author avatar: the media rule, including that an object under MEDIA_URL exists', async () => {
    for (const avatar of [
      'javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:image/png;base64,AA',
      'https://127.0.0.1/a.png',
      '/media/none.png',
    ]) {
      const answer = await post('/api/v1/blog/authors/save', { name: 'Mallory', language: 'en', avatar })
      expect([avatar, answer.status, fieldsOf(answer)]).toEqual([avatar, 400, ['avatar']])
    }
    const ok = await post('/api/v1/blog/authors/save', {
      name: 'Alice',
      language: 'en',
      avatar: 'https://cdn.example.org/alice.png',
      socialLinks: JSON.stringify({ mastodon: 'https://example.social/@alice' }),
    })
    expect(ok.body.code).toBe('0000')
  })
  test('posts: canonicalUrl is a link, coverImage and ogImage follow the media rule', async () => {
    const base = publishablePost(taxonomy.categoryId, taxonomy.authorId)
    for (const [field, value] of [
      ['canonicalUrl', 'java\tscript:alert(1)'],
      ['canonicalUrl', '\u0001javascript:alert(1)'],
      ['coverImage', 'java\nscript:alert(1)'],
      ['coverImage', 'blob:http://localhost:3000/1'],
      ['ogImage', 'https://printer.local/a.png'],
      ['ogImage', '\u202ehttps://cdn.example.org/a.png'],
    ] as const) {
      const answer = await post('/api/v1/blog/posts/save', { ...base, [field]: value })
      expect([value, answer.status, fieldsOf(answer)]).toEqual([value, 400, [field]])
    }
  })
  test('publication icon and webhook receiver URLs', async () => {
    const icon = await post('/api/admin/blog/publication-settings/save', { iconUrl: ' java\tscript:alert(1)' })
    expect([icon.status, fieldsOf(icon)]).toEqual([400, ['iconUrl']])
    const hook = await post('/api/admin/blog/webhooks/save', { url: 'javascript:alert(1)', secret: SECRET, events: ['blog.*'] })
    expect([hook.status, fieldsOf(hook)]).toEqual([400, ['url']])
  })
})

describe('contentHtml (items 10 and 12)', () => {
  test('a body nested deeper than the bound is a 400 naming contentHtml, at check and save', async () => {
    const deep = { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), contentHtml: '<div>'.repeat(100_000) }
    for (const path of ['/api/v1/blog/posts/check', '/api/v1/blog/posts/save']) {
      const answer = await post(path, deep)
      expect([answer.status, answer.body.code, fieldsOf(answer)]).toEqual([400, 'VALIDATION_FAILED', ['contentHtml']])
    }
  })
  test('64,000 dots in one check answer at once and never hold the other requests', async () => {
    const dots = { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), contentHtml: `<p>Run${'.'.repeat(64_000)}x</p>` }
    const [check, other] = await Promise.all([post('/api/v1/blog/posts/check', dots), folio.call('GET', '/api/v1/blog/categories')])
    expect([check.body.code, other.body.code]).toEqual(['0000', '0000'])
  })
  test('toc ids of a stored post are safe tokens, never markup from an entity-encoded id', async () => {
    const contentHtml = `<h2 id="&quot;&gt;&lt;svg/onload=alert(1)&gt;">Why choose?</h2>${publishablePost(0, null).contentHtml}`
    const saved = await post('/api/v1/blog/posts/save', { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), contentHtml })
    expect(saved.body.data.toc[0]).toEqual({ id: 'why-choose', text: 'Why choose?', title: 'Why choose?', level: 2 })
    expect(saved.body.data.contentHtml).toStartWith('<h2 id="why-choose">Why choose?</h2>')
  })
  test('RSS descriptions carry the summary as text', async () => {
    const summary = 'Tags like <img src=x onerror=alert(1)> stay text & are shown as written.'
    await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId, { summary }))
    const rss = await (await fetch(`${folio.url}/api/v1/blog/rss.xml?language=en`)).text()
    expect(rss).toContain(
      '<description>Tags like &amp;lt;img src=x onerror=alert(1)&amp;gt; stay text &amp;amp; are shown as written.</description>',
    )
  })
})

describe('webhook receivers must be public (item 13)', () => {
  test('loopback, private and link-local receivers are refused at save', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://169.254.169.254/',
      'http://[::1]/x',
      'http://10.0.0.1/',
    ]) {
      const answer = await post('/api/admin/blog/webhooks/save', { url, secret: SECRET, events: ['blog.*'] })
      expect([url, answer.status, fieldsOf(answer)]).toEqual([url, 400, ['url']])
      expect(answer.body.message).toContain('WEBHOOK_ALLOW_PRIVATE=1')
    }
  })
  test('and at delivery time: a receiver saved while allowed is not called once the flag is off', async () => {
    await folio.stop()
    folio.env.WEBHOOK_ALLOW_PRIVATE = '1'
    await folio.restart()
    const saved = await post('/api/admin/blog/webhooks/save', { url: receiver.url('/private'), secret: SECRET, events: ['blog.*'] })
    expect(saved.body.code).toBe('0000')
    await folio.stop()
    folio.env.WEBHOOK_ALLOW_PRIVATE = '0'
    folio.env.WEBHOOK_RETRY_DELAYS = '1'
    await folio.restart()
    const published = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const records = await waitForLog(folio, token, (rs) => rs.some((r) => r.postId === published.id && r.status === 'failed'))
    const delivery = records.find((r) => r.postId === published.id)
    expect(delivery.failureReason).toContain('127.0.0.1 is a loopback, private, link-local or reserved address')
    expect(receiver.on('/private')).toHaveLength(0)
    // Two restarts and a delivery's retries: above the 30 s default on a loaded box.
  }, 60_000)
})

describe('headers and caches (item 14)', () => {
  test('every answer carries nosniff and a Referrer-Policy', async () => {
    for (const answer of [
      await folio.call('GET', '/api/v1/blog/categories'),
      await folio.call('GET', '/api/v1/blog/posts/no-such-post'),
      await folio.call('GET', '/api/v1/blog/rss.xml'),
      await folio.call('GET', '/api/admin/blog/webhooks'),
    ]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    }
  })
  test('answers to a token and admin or resource paths are private, no-store; anonymous public reads stay shareable', async () => {
    const withToken = await folio.call('GET', '/api/v1/blog/categories', { token })
    expect(withToken.headers.get('cache-control')).toBe('private, no-store')
    const admin = await folio.call('GET', '/api/admin/blog/webhooks', { token })
    expect(admin.headers.get('cache-control')).toBe('private, no-store')
    const refused = await folio.call('GET', '/api/admin/blog/webhooks')
    expect([refused.status, refused.headers.get('cache-control')]).toEqual([401, 'private, no-store'])
    const resources = await folio.call('GET', '/api/v1/blog/resources/categories', { token })
    expect(resources.headers.get('cache-control')).toBe('private, no-store')
    // An artifact: browsers revalidate, a CDN may keep it (test/publishing/cdn.test.ts).
    const anonymous = await folio.call('GET', '/api/v1/blog/categories')
    expect(anonymous.headers.get('cache-control')).toBe(artifactCacheControl(loadConfig({}).cdn))
    const live = await folio.call('GET', '/api/v1/blog/posts?keywords=static')
    expect(live.headers.get('cache-control')).toBe('public, no-cache')
  })
})

describe('Caddy in front (item 14)', () => {
  test('answers served from disk and proxied ones carry the same security headers, once', async () => {
    await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
    try {
      for (const path of ['/api/v1/blog/categories', '/api/v1/blog/posts?keywords=static', '/api/admin/blog/webhooks']) {
        const answer = await fetch(`${caddy.url}${path}`)
        expect([path, answer.headers.get('x-content-type-options'), answer.headers.get('referrer-policy')]).toEqual([
          path,
          'nosniff',
          'strict-origin-when-cross-origin',
        ])
      }
      // From disk: Caddy's file server answered (its ETag), not the API.
      expect((await fetch(`${caddy.url}/api/v1/blog/categories`)).headers.get('x-request-id')).toBeNull()
    } finally {
      await caddy.stop()
    }
  })
})
