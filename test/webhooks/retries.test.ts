import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, startReceiver, waitForLog, TEST_ENV } from './receiver.ts'

// End-to-end: real server, real receiver, real retry delays. Nothing here waits to see that nothing
// more comes: a delivery the log shows delivered or failed has no attempt left. That a retry comes
// exactly at its delay, and never after the end, is checked on an injected clock in
// test/webhooks/retry-schedule.test.ts.
// Above the bounded waits (30 s: test/support/until.ts), so a slow wait fails with its own message.
setDefaultTimeout(60_000)

const DELAYS = [300, 600, 900]
const TIMEOUT_MS = 2_000

let folio: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
// '/gone-later': busy for the first post it hears of (its retry waits), gone for any other post.
let busyPost: number | null = null
const receiver = startReceiver(async (request, n) => {
  switch (request.path) {
    case '/flaky':
      return n <= 2 ? new Response('not yet', { status: 503 }) : new Response('ok')
    case '/broken':
      return new Response('x'.repeat(5000), { status: 500 })
    case '/gone':
      return new Response('unsubscribed', { status: 410 })
    case '/gone-later': {
      const post = (JSON.parse(request.body) as { post: { id: number } }).post.id
      busyPost ??= post
      return post === busyPost ? new Response('busy', { status: 503 }) : new Response('unsubscribed', { status: 410 })
    }
    case '/slow':
      // The first attempt gets no answer before the server gives up on it: it hangs until the retry arrives.
      if (n === 1) await receiver.waitFor('/slow', 2)
      return new Response('ok')
    default:
      return new Response('ok')
  }
})

beforeAll(async () => {
  folio = await startFolio({
    WEBHOOK_RETRY_DELAYS: DELAYS.map((d) => `${d}ms`).join(','),
    ...TEST_ENV,
    // Long enough that a prompt answer (the retry's) is never cut on a loaded box.
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
  })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

/** A fresh receiver at `path` alone subscribed to publishing, then one publish. */
async function publishTo(path: string) {
  await folio.call('POST', '/api/admin/blog/webhooks/save', {
    token,
    body: { id: 1, url: receiver.url(path), events: ['blog.post.published'] },
  })
  return publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
}

const deliveryOf = (records: any[], postId: number) => records.find((r) => r.postId === postId)

describe('webhook retries', () => {
  beforeAll(async () => {
    await addReceiver(folio, token, { url: receiver.url('/unused'), events: ['blog.post.published'] })
  })

  test('a receiver failing twice then succeeding gets exactly three attempts, at the configured delays', async () => {
    const post = await publishTo('/flaky')
    const attempts = await receiver.waitFor('/flaky', 3)
    // Never early: each attempt is recorded after its answer, and the next waits its delay from then.
    const gaps = [attempts[1]!.at - attempts[0]!.at, attempts[2]!.at - attempts[1]!.at]
    expect(gaps[0]).toBeGreaterThanOrEqual(DELAYS[0]!)
    expect(gaps[1]).toBeGreaterThanOrEqual(DELAYS[1]!)
    // A retry is the same delivery: same id, same body, a fresh signature.
    expect(new Set(attempts.map((a) => a.headers.get('x-folio-delivery'))).size).toBe(1)
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1)

    const records = await waitForLog(folio, token, (rs) => deliveryOf(rs, post.id)?.status === 'delivered')
    expect(receiver.on('/flaky')).toHaveLength(3)
    const delivery = deliveryOf(records, post.id)
    expect(delivery).toMatchObject({
      nextAttemptAt: null,
      attempts: 3,
      retryCount: 2,
      maxAttempts: 4,
      lastHttpStatus: 200,
      lastResponse: 'ok',
      failureReason: null,
    })
    const detail = await folio.call('GET', `/api/admin/blog/webhooks/events/${delivery.id}`, { token })
    expect(detail.body.data.attemptLog.map((a: any) => [a.attempt, a.httpStatus, a.response, a.failureReason])).toEqual([
      [1, 503, 'not yet', 'HTTP 503'],
      [2, 503, 'not yet', 'HTTP 503'],
      [3, 200, 'ok', null],
    ])
  })

  test('a receiver that never succeeds stops after the last retry, and the log says why', async () => {
    const post = await publishTo('/broken')
    await receiver.waitFor('/broken', 4)
    const records = await waitForLog(folio, token, (rs) => deliveryOf(rs, post.id)?.status === 'failed')
    expect(receiver.on('/broken')).toHaveLength(1 + DELAYS.length)
    const delivery = deliveryOf(records, post.id)
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4, retryCount: 3, lastHttpStatus: 500, nextAttemptAt: null })
    expect(delivery.failureReason).toBe('gave up after 4 attempts; last: HTTP 500')
    // Only a short status excerpt of the answer is kept.
    expect(delivery.lastResponse).toBe('x'.repeat(200) + '…')
    const failed = await folio.call('GET', '/api/admin/blog/webhooks/events?status=failed', { token })
    expect(failed.body.data.records.map((r: any) => r.id)).toContain(delivery.id)
  })

  test('an attempt without an answer in time is a failure that is retried', async () => {
    const post = await publishTo('/slow')
    await receiver.waitFor('/slow', 2)
    const records = await waitForLog(folio, token, (rs) => deliveryOf(rs, post.id)?.status === 'delivered')
    const detail = await folio.call('GET', `/api/admin/blog/webhooks/events/${deliveryOf(records, post.id).id}`, { token })
    const [first, second] = detail.body.data.attemptLog
    expect(first).toMatchObject({ attempt: 1, httpStatus: null, failureReason: `no answer within ${TIMEOUT_MS} ms` })
    expect(first.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 10)
    expect(second).toMatchObject({ attempt: 2, httpStatus: 200 })
  })

  test('a 410 ends the delivery and disables the receiver, which then gets nothing', async () => {
    const post = await publishTo('/gone')
    await receiver.waitFor('/gone', 1)
    const records = await waitForLog(folio, token, (rs) => deliveryOf(rs, post.id)?.status === 'failed')
    expect(deliveryOf(records, post.id)).toMatchObject({ attempts: 1, lastHttpStatus: 410 })
    expect(deliveryOf(records, post.id).failureReason).toContain('410')
    const receivers = (await folio.call('GET', '/api/admin/blog/webhooks', { token })).body.data
    expect(receivers[0]).toMatchObject({ id: 1, enabled: false })
    expect(receivers[0].disabledReason).toContain('410')

    const next = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    expect(next.webhookQueued).toBe(false)
    // Nothing was queued for it: the log holds no delivery of the new post.
    const after = await folio.call('GET', '/api/admin/blog/webhooks/events?size=100', { token })
    expect(deliveryOf(after.body.data.records, next.id)).toBeUndefined()
    expect(receiver.on('/gone')).toHaveLength(1)
  })

  test("a 410 also ends the receiver's other waiting deliveries", async () => {
    await folio.call('POST', '/api/admin/blog/webhooks/save', {
      token,
      body: { id: 1, url: receiver.url('/gone-later'), events: ['blog.post.published'], enabled: true },
    })
    const first = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await receiver.waitFor('/gone-later', 1)
    // The first delivery now waits for its retry (answered busy again should it come first, on a
    // loaded machine); the second post's delivery is answered with 410.
    const second = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const records = await waitForLog(folio, token, (rs) => [first.id, second.id].every((id) => deliveryOf(rs, id)?.status === 'failed'))
    const ended = deliveryOf(records, first.id)
    expect(ended).toMatchObject({ failureReason: 'receiver disabled after a 410 Gone answer', nextAttemptAt: null })
    expect(deliveryOf(records, second.id)).toMatchObject({ attempts: 1, lastHttpStatus: 410 })
    // Nothing more reaches the receiver: the first delivery's retry was called off.
    expect(receiver.on('/gone-later')).toHaveLength(ended.attempts + 1)
  })
})
