import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { join, resolve } from 'node:path'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, startReceiver, waitForLog, TEST_ENV } from './receiver.ts'

// End-to-end: real server, real receiver, real kill -9. The server runs on a movable clock
// (docs/testing.md, "Time"): retries and leases fall due when the test moves its time past them, so
// neither a wait on the real clock nor a loaded machine decides what the checks see.
// Above the bounded waits (30 s: test/support/until.ts), so a slow wait fails with its own message.
setDefaultTimeout(60_000)

/** Long enough that no retry or lease falls due by itself while a test runs, however slow the machine. */
const RETRY_MS = 60_000
const TIMEOUT_MS = 60_000
/** A claim's lease: twice the attempt timeout plus a second (webhooks/worker.ts `leaseMs`). */
const LEASE_MS = 2 * TIMEOUT_MS + 1000

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
  folio = await startFolio(
    { WEBHOOK_RETRY_DELAYS: `${RETRY_MS}ms,${RETRY_MS}ms`, ...TEST_ENV, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    { movableClock: true },
  )
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
    const posts = await Promise.all(
      Array.from({ length: 3 }, () => publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))),
    )
    await waitForLog(folio, token, (rs) => rs.length === 3 && rs.every((r) => r.status === 'pending' && r.attempts === 1))
    await folio.stop(true)
    const beforeRestart = receiver.on('/retry').length
    failing = false
    // The retries fall due while the service is down.
    await folio.advanceClock(RETRY_MS)
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
    const held = first!.headers.get('x-folio-delivery')
    await folio.stop(true)
    release()
    await folio.restart()
    // The lease keeps the row from being sent twice at once: a delivery queued after the restart
    // goes out (the worker ran its rounds), the held one does not…
    const probe = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    const [, second] = await receiver.waitFor('/hang', 2)
    expect(JSON.parse(second!.body).post.id).toBe(probe.id)
    expect(receiver.on('/hang').filter((r) => r.headers.get('x-folio-delivery') === held)).toHaveLength(1)
    // …until its lease has run out: then it goes out again, the same delivery.
    await folio.advanceClock(LEASE_MS)
    const requests = await receiver.waitFor('/hang', 3)
    expect(requests[2]!.headers.get('x-folio-delivery')).toBe(held)
    expect(JSON.parse(requests[2]!.body).post.id).toBe(post.id)
    const records = await waitForLog(folio, token, (rs) => rs.find((r) => r.postId === post.id)?.status === 'delivered')
    expect(records.find((r) => r.postId === post.id).attempts).toBe(1)
  })

  test('the worker also runs on its own, next to a server started with WEBHOOK_WORKER=off', async () => {
    // A server of its own, on the real clock: the stand-alone worker reads the system's time.
    const alone = await startFolio({ ...TEST_ENV, WEBHOOK_WORKER: 'off' })
    try {
      const admin = await alone.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
      const { categoryId, authorId } = await seedTaxonomy(alone, admin)
      await addReceiver(alone, admin, { url: receiver.url('/alone'), events: ['blog.*'] })
      const post = await publishNewPost(alone, admin, publishablePost(categoryId, authorId))
      // Nothing sends it meanwhile, shown rather than waited for: this server runs no worker (its
      // /healthz has no re-based count of one), and the delivery is queued, never attempted.
      expect((await alone.call('GET', '/healthz')).body.data.webhooks.rebased).toBeNull()
      const queued = await waitForLog(alone, admin, (records) => records.some((r) => r.postId === post.id))
      expect(queued.find((r) => r.postId === post.id)).toMatchObject({ status: 'pending', attempts: 0 })
      expect(receiver.on('/alone')).toHaveLength(0)
      const worker = Bun.spawn([process.execPath, join(resolve(import.meta.dir, '..', '..'), 'src/modules/webhooks/worker-main.ts')], {
        env: alone.env,
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
    } finally {
      await alone.dispose()
    }
  })
})
