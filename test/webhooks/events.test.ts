import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { verify } from '../../src/modules/webhooks/sign.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { readmeVerify } from './readme-verify.ts'
import { addReceiver, SECRET, startReceiver, type Received, TEST_ENV, waitForLog } from './receiver.ts'

// End-to-end: real server, real receiver, real retry delays.
// Above the bounded waits (30 s: test/support/until.ts), so a slow wait fails with its own message.
setDefaultTimeout(60_000)

const SITE_URL = 'https://blog.example.com'
let folio: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
const receiver = startReceiver()

beforeAll(async () => {
  folio = await startFolio({ SITE_URL, ...TEST_ENV })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

const bodyOf = (request: Received) => JSON.parse(request.body)
/**
 * `path`'s requests once `count` came and the delivery log shows every delivery queued for it
 * delivered, in one attempt: the outbox rows are written with the changes, so no more can come (no
 * wait on the real clock to see that nothing else arrives).
 */
async function exactly(path: string, count: number): Promise<Received[]> {
  await receiver.waitFor(path, count)
  const url = receiver.url(path)
  const records = (
    await waitForLog(folio, token, (rs) => rs.filter((r) => r.receiverUrl === url).every((r) => r.status === 'delivered'))
  ).filter((r) => r.receiverUrl === url)
  expect(records.map((r) => r.attempts)).toEqual(Array(count).fill(1))
  expect(receiver.on(path)).toHaveLength(count)
  return receiver.on(path)
}

describe('webhook events', () => {
  test('published, unpublished and deleted each arrive once, signed, with the documented payload', async () => {
    await addReceiver(folio, token, { url: receiver.url('/all'), events: ['blog.*'] })
    const post = publishablePost(taxonomy.categoryId, taxonomy.authorId)
    const published = await publishNewPost(folio, token, post)
    expect(published.webhookQueued).toBe(true)
    await receiver.waitFor('/all', 1)
    expect((await folio.call('GET', `/api/v1/blog/posts/operate?id=${published.id}&status=2`, { token })).body.data).toBe(true)
    await receiver.waitFor('/all', 2)
    expect((await folio.call('GET', `/api/v1/blog/posts/delete?id=${published.id}`, { token })).body.data).toBe(true)
    const requests = await exactly('/all', 3)

    const readme = await readmeVerify()
    expect(requests.map((r) => r.headers.get('x-folio-event'))).toEqual([
      'blog.post.published',
      'blog.post.unpublished',
      'blog.post.deleted',
    ])
    const deliveryIds = new Set(requests.map((r) => r.headers.get('x-folio-delivery')))
    expect(deliveryIds.size).toBe(3)
    for (const request of requests) {
      const payload = bodyOf(request)
      expect(request.headers.get('content-type')).toBe('application/json')
      expect(request.headers.get('user-agent')).toBe('Folio-Webhooks/1')
      expect(request.headers.get('x-folio-delivery')).toMatch(/^[1-9]\d*$/)
      expect(payload.event).toBe(request.headers.get('x-folio-event'))
      expect(payload.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(payload.occurredAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/)
      // What a receiver needs without a second call: summary, cover, version, category, tags, translation.
      expect(payload.post).toEqual({
        id: published.id,
        language: 'en',
        slug: post.slug,
        title: post.title,
        status: payload.event === 'blog.post.published' ? 1 : 2,
        url: `${SITE_URL}/en/blog/${post.slug}`,
        publishedAt: published.publishedAt,
        summary: post.summary ?? '',
        coverImage: post.coverImage ?? '',
        coverAlt: post.coverAlt ?? '',
        version: expect.any(Number),
        updatedTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        category: { id: taxonomy.categoryId, slug: expect.any(String), nameEn: expect.any(String), nameZh: '指南' },
        tags: [],
        translation: null,
      })
      const signature = request.headers.get('x-folio-signature')!
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
      expect(Math.abs(Number(/^t=(\d+)/.exec(signature)![1]) - request.at / 1000)).toBeLessThan(5)
      expect(readme(SECRET, signature, request.body)).toBe(true)
      expect(verify(SECRET, signature, request.body)).toBe(true)
    }
    expect(new Set(requests.map((r) => bodyOf(r).id)).size).toBe(3)
  })

  test("the README's verify function rejects a stale timestamp and a tampered body of a real request", async () => {
    const readme = await readmeVerify()
    const [request] = receiver.on('/all')
    const signature = request!.headers.get('x-folio-signature')!
    const t = Number(/^t=(\d+)/.exec(signature)![1])
    expect(readme(SECRET, signature, request!.body, t + 300)).toBe(true)
    expect(readme(SECRET, signature, request!.body, t + 301)).toBe(false)
    expect(readme(SECRET, signature, request!.body, t - 301)).toBe(false)
    expect(readme(SECRET, signature, request!.body.replace('"status":1', '"status":2'), t)).toBe(false)
    expect(readme(SECRET, signature, request!.body + ' ', t)).toBe(false)
    expect(readme('whsec_wrong_0123456789abcdef', signature, request!.body, t)).toBe(false)
  })

  test('save with status=1, save with status=2 and operate status=1 raise their events too', async () => {
    await addReceiver(folio, token, { url: receiver.url('/saves'), events: ['blog.*'] })
    const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
      token,
      body: { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), status: 1 },
    })
    expect(saved.body.code).toBe('0000')
    await receiver.waitFor('/saves', 1)
    const id = saved.body.data.id
    const offline = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...saved.body.data, id, status: 2 } })
    expect(offline.body.code).toBe('0000')
    await receiver.waitFor('/saves', 2)
    // Saving an offline post again changes no published state: no event. (The latest answer is
    // echoed: its `version` makes the save conditional, and the first answer's is stale.)
    expect((await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...offline.body.data, id, status: 2 } })).body.code).toBe(
      '0000',
    )
    expect((await folio.call('GET', `/api/v1/blog/posts/operate?id=${id}&status=1`, { token })).body.data).toBe(true)
    const requests = await exactly('/saves', 3)
    expect(requests.map((r) => bodyOf(r).event)).toEqual(['blog.post.published', 'blog.post.unpublished', 'blog.post.published'])
    expect(requests.every((r) => bodyOf(r).post.id === id)).toBe(true)
  })

  test('wildcard and exact subscriptions get what they asked for; a disabled receiver gets nothing', async () => {
    const urls = { wild: '/sub-wild', published: '/sub-published', deleted: '/sub-deleted', off: '/sub-off' }
    await addReceiver(folio, token, { url: receiver.url(urls.wild), events: ['blog.*'] })
    await addReceiver(folio, token, { url: receiver.url(urls.published), events: ['blog.post.published'] })
    await addReceiver(folio, token, { url: receiver.url(urls.deleted), events: ['blog.post.deleted', 'blog.post.unpublished'] })
    await addReceiver(folio, token, { url: receiver.url(urls.off), events: ['blog.*'], enabled: false })
    const published = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await receiver.waitFor(urls.published, 1)
    await folio.call('GET', `/api/v1/blog/posts/delete?id=${published.id}`, { token })
    const wild = await exactly(urls.wild, 2)
    expect(wild.map((r) => bodyOf(r).event)).toEqual(['blog.post.published', 'blog.post.deleted'])
    expect((await exactly(urls.published, 1)).map((r) => bodyOf(r).event)).toEqual(['blog.post.published'])
    expect((await exactly(urls.deleted, 1)).map((r) => bodyOf(r).event)).toEqual(['blog.post.deleted'])
    expect(receiver.on(urls.off)).toHaveLength(0)
    // One event, one id, whichever receiver gets it.
    expect(bodyOf(wild[0]!).id).toBe(bodyOf(receiver.on(urls.published)[0]!).id)
  })
})
