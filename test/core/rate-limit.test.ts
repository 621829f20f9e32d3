import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startFolio, type Folio } from '../support/folio.ts'

let folio: Folio
beforeAll(async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '5' })
})
afterAll(() => folio.dispose())

/**
 * Runs `burst` until it fell inside one of the limiter's fixed one-minute windows (the server reads
 * the same clock): a burst across a minute's end is counted in two windows and shows nothing.
 */
async function inOneWindow<T>(burst: () => Promise<T>): Promise<T> {
  for (;;) {
    const window = Math.floor(Date.now() / 60_000)
    const result = await burst()
    if (Math.floor(Date.now() / 60_000) === window) return result
  }
}

test('past the limit a call gets the policy rejection: HTTP 200, RATE_LIMITED, with back-off headers', async () => {
  const responses = await inOneWindow(async () => {
    // A fresh token each try: a try that crossed a minute's end counted some of its calls in this one.
    const token = await folio.token('blog:read')
    const calls = []
    for (let i = 0; i < 6; i++) calls.push(await folio.call('GET', '/api/v1/blog/categories', { token }))
    return calls
  })
  for (const [i, res] of responses.slice(0, 5).entries()) {
    expect(res.body.code).toBe('0000')
    expect(res.headers.get('ratelimit-limit')).toBe('5')
    expect(res.headers.get('ratelimit-remaining')).toBe(String(4 - i))
  }
  const rejected = responses[5]!
  expect(rejected.status).toBe(200)
  expect(rejected.body.code).toBe('RATE_LIMITED')
  const retryAfter = Number(rejected.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(rejected.headers.get('ratelimit-remaining')).toBe('0')

  // Each token+IP pair has its own budget, and anonymous callers have theirs (per IP).
  const other = await folio.token('blog:read')
  expect((await folio.call('GET', '/api/v1/blog/categories', { token: other })).body.code).toBe('0000')
  expect((await folio.call('GET', '/api/v1/blog/categories')).body.code).toBe('0000')
})

test('X-Forwarded-For is ignored unless TRUST_PROXY=1: a client cannot name itself a fresh address', async () => {
  // A read the API answers itself (a list page deeper than those pre-rendered): artifacts are not counted.
  const spoofed = await inOneWindow(async () => {
    const calls = []
    for (let i = 0; i < 7; i++)
      calls.push(await folio.call('GET', '/api/v1/blog/posts?current=9', { headers: { 'x-forwarded-for': `10.0.0.${i}` } }))
    return calls
  })
  expect(spoofed.some((res) => res.body.code === 'RATE_LIMITED')).toBe(true)
})
