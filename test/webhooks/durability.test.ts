import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { join, resolve } from 'node:path'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, startReceiver, waitForLog, TEST_ENV } from './receiver.ts'

// End-to-end: real server, real receiver, real retry delays.
setDefaultTimeout(20_000)

let folio: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
let failing = true
let hang: Promise<void> | null = null
const receiver = startReceiver(async (request) => {
  if (request.path === '/retry') return failing ? new Response('down', { status: 503 }) : new Response('ok')
  if (request.path === '/hang' && hang) {
    const wait = hang
    hang = null
    await wait
  }
  return new Response('ok')
})

beforeAll(async () => {
  // WEBHOOK_TIMEOUT_MS=1000 makes a claim's lease 3 s.
  folio = await startFolio({ WEBHOOK_RETRY_DELAYS: '1,1', ...TEST_ENV, WEBHOOK_TIMEOUT_MS: '1000' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

describe('webhook durability', () => {
  test('kill -9 during pending retries loses nothing: every delivery arrives after the restart', async () => {
    await addReceiver(folio, token, { url: receiver.url('/retry'), events: ['blog.post.published'] })
    // Published together: one after another, a loaded machine can take longer than the whole
    // retry schedule (1 s + 1 s), and the first post's deliveries would fail before the check.
    const posts = await Promise.all(
      Array.from({ length: 3 }, () => publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))),
    )
    await waitForLog(folio, token, (rs) => rs.length === 3 && rs.every((r) => r.status === 'pending' && r.attempts === 1))
    await folio.stop(true)
    const beforeRestart = receiver.on('/retry').length
    failing = false
    // The retries fall due while the service is down.
    await Bun.sleep(1200)
    await folio.restart()
    const records = await waitForLog(folio, token, (rs) => rs.every((r) => r.status === 'delivered'))
    expect(records.map((r) => r.attempts)).toEqual([2, 2, 2])
    const afterRestart = receiver.on('/retry').slice(beforeRestart)
    expect(afterRestart.map((r) => JSON.parse(r.body).post.id).sort()).toEqual(posts.map((p) => p.id).sort())
  })

  test('kill -9 mid-delivery: the claimed delivery goes out again once its lease expires', async () => {
    let release = () => {}
    hang = new Promise<void>((resolve) => (release = resolve))
    await folio.call('POST', '/api/admin/blog/webhooks/save', {
      token,
      body: { id: 1, url: receiver.url('/hang'), events: ['blog.post.published'] },
    })
    const post = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const [first] = await receiver.waitFor('/hang', 1)
    await folio.stop(true)
    release()
    await folio.restart()
    const requests = await receiver.waitFor('/hang', 2, 10_000)
    expect(requests[1]!.headers.get('x-folio-delivery')).toBe(first!.headers.get('x-folio-delivery'))
    expect(JSON.parse(requests[1]!.body).post.id).toBe(post.id)
    // The lease (2 × 1 s + 1 s) kept the row from being sent twice at once. It starts at the claim,
    // a few milliseconds before the receiver sees the first request, hence the small margin.
    expect(requests[1]!.at - first!.at).toBeGreaterThanOrEqual(2800)
    const records = await waitForLog(folio, token, (rs) => rs.find((r) => r.postId === post.id)?.status === 'delivered')
    expect(records.find((r) => r.postId === post.id).attempts).toBe(1)
  })

  test('the worker also runs on its own, next to a server started with WEBHOOK_WORKER=off', async () => {
    await folio.stop()
    folio.env.WEBHOOK_WORKER = 'off'
    await folio.restart()
    await folio.call('POST', '/api/admin/blog/webhooks/save', { token, body: { id: 1, url: receiver.url('/alone'), events: ['blog.*'] } })
    const post = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await Bun.sleep(300)
    expect(receiver.on('/alone')).toHaveLength(0)
    const worker = Bun.spawn([process.execPath, join(resolve(import.meta.dir, '..', '..'), 'src/modules/webhooks/worker-main.ts')], {
      env: folio.env,
      stdout: 'ignore',
      stderr: 'pipe',
    })
    try {
      const [request] = await receiver.waitFor('/alone', 1)
      expect(JSON.parse(request!.body).post.id).toBe(post.id)
    } finally {
      worker.kill('SIGTERM')
    }
    expect(await worker.exited).toBe(0)
  })
})
