import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, SECRET, startReceiver, waitForLog, TEST_ENV } from './receiver.ts'

// End-to-end: real server, real receiver, real retry delays.
// Above the bounded waits (30 s: test/support/until.ts), so a slow wait fails with its own message.
setDefaultTimeout(60_000)

let folio: Folio
let admin: string
let taxonomy: { categoryId: number; authorId: number }
let failing = false
const receiver = startReceiver(() => (failing ? new Response('no', { status: 500 }) : new Response('ok')))

beforeAll(async () => {
  folio = await startFolio({ WEBHOOK_RETRY_DELAYS: '100ms', ...TEST_ENV })
  admin = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  taxonomy = await seedTaxonomy(folio, admin)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

const save = (body: unknown, token = admin) => folio.call('POST', '/api/admin/blog/webhooks/save', { token, body })
const fieldsOf = (response: { body: any }) => response.body.data.errors.map((e: any) => e.field)

describe('webhook receivers (admin)', () => {
  test('need a blog:admin token', async () => {
    const writer = await folio.token('blog:write', 'blog:publish')
    const body = { url: receiver.url('/x'), secret: SECRET, events: ['blog.*'] }
    expect((await folio.call('POST', '/api/admin/blog/webhooks/save', { body })).status).toBe(401)
    expect((await save(body, writer)).status).toBe(403)
    expect((await folio.call('GET', '/api/admin/blog/webhooks', { token: writer })).status).toBe(403)
    expect((await folio.call('GET', '/api/admin/blog/webhooks/events', { token: writer })).status).toBe(403)
    expect((await folio.call('POST', '/api/admin/blog/webhooks/events/1/redeliver', { token: writer })).status).toBe(403)
  })

  test('bad input is a 400 naming the field, and nothing is stored', async () => {
    const ok = { url: receiver.url('/x'), secret: SECRET, events: ['blog.*'] }
    const cases: [unknown, string][] = [
      [{ ...ok, url: 'ftp://example.com/hook' }, 'url'],
      [{ ...ok, url: 'not a url' }, 'url'],
      [{ ...ok, url: 'javascript:alert(1)' }, 'url'],
      [{ ...ok, events: ['blog.post.created'] }, 'events'],
      [{ ...ok, events: [] }, 'events'],
      [{ ...ok, events: 'blog.*' }, 'events'],
      [{ ...ok, secret: undefined }, 'secret'],
      [{ ...ok, secret: 'short' }, 'secret'],
      [{ ...ok, enabled: 'yes' }, 'enabled'],
      [{ ...ok, id: 0 }, 'id'],
    ]
    for (const [body, field] of cases) {
      const response = await save(body)
      expect(response.status).toBe(400)
      expect(fieldsOf(response)).toContain(field)
    }
    const missing = await save({ ...ok, id: 999 })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('BLOG_NOT_FOUND')
    expect((await save('{"url":')).status).toBe(400)
    expect((await folio.call('GET', '/api/admin/blog/webhooks', { token: admin })).body.data).toEqual([])
  })

  test('are listed without their secret; an update without a secret keeps it', async () => {
    const created = await addReceiver(folio, admin, { url: receiver.url('/list'), events: ['blog.post.published', 'blog.post.deleted'] })
    const listing = await folio.call('GET', '/api/admin/blog/webhooks', { token: admin })
    expect(listing.text).not.toContain(SECRET)
    expect(listing.body.data).toEqual([
      expect.objectContaining({
        id: created.id,
        url: receiver.url('/list'),
        events: ['blog.post.published', 'blog.post.deleted'],
        enabled: true,
      }),
    ])
    const fingerprint = listing.body.data[0].secretFingerprint
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/)

    const updated = await save({ id: created.id, url: receiver.url('/list'), events: ['blog.*'] })
    expect(updated.body.data).toMatchObject({ events: ['blog.*'], secretFingerprint: fingerprint })
    expect(updated.text).not.toContain(SECRET)
    const rotated = await save({ id: created.id, url: receiver.url('/list'), events: ['blog.*'], secret: 'whsec_rotated_0123456789' })
    expect(rotated.body.data.secretFingerprint).not.toBe(fingerprint)
    await save({ id: created.id, url: receiver.url('/list'), events: ['blog.*'], enabled: false })
  })
})

describe('the delivery log (admin)', () => {
  test('pages, filters by status, and shows why a delivery failed', async () => {
    await addReceiver(folio, admin, { url: receiver.url('/log'), events: ['blog.post.published'] })
    await publishNewPost(folio, admin, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await publishNewPost(folio, admin, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await waitForLog(folio, admin, (rs) => rs.length === 2 && rs.every((r) => r.status === 'delivered'))
    failing = true
    await publishNewPost(folio, admin, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await waitForLog(folio, admin, (rs) => rs.length === 3 && rs.every((r) => r.status === 'delivered' || r.status === 'failed'))
    failing = false

    const page = await folio.call('GET', '/api/admin/blog/webhooks/events?current=2&size=2', { token: admin })
    expect(page.body.data).toMatchObject({ total: 3, size: 2, current: 2 })
    expect(page.body.data.records).toHaveLength(1)
    const delivered = await folio.call('GET', '/api/admin/blog/webhooks/events?status=delivered', { token: admin })
    expect(delivered.body.data.total).toBe(2)
    const failed = await folio.call('GET', '/api/admin/blog/webhooks/events?status=failed', { token: admin })
    expect(failed.body.data.records).toEqual([
      expect.objectContaining({
        status: 'failed',
        event: 'blog.post.published',
        receiverUrl: receiver.url('/log'),
        attempts: 2,
        retryCount: 1,
        lastHttpStatus: 500,
        lastResponse: 'no',
        failureReason: 'gave up after 2 attempts; last: HTTP 500',
      }),
    ])

    for (const query of ['status=done', 'size=0', 'size=101', 'current=0', 'current=x']) {
      const bad = await folio.call('GET', `/api/admin/blog/webhooks/events?${query}`, { token: admin })
      expect(bad.status).toBe(400)
      expect(fieldsOf(bad)).toContain(query.split('=')[0])
    }
    expect((await folio.call('GET', '/api/admin/blog/webhooks/events/999', { token: admin })).body.code).toBe('BLOG_NOT_FOUND')
  })

  test('redeliver queues a new delivery of the same event; pending or unknown ones are refused', async () => {
    const [failed] = (await folio.call('GET', '/api/admin/blog/webhooks/events?status=failed', { token: admin })).body.data.records
    const before = receiver.on('/log').length
    const again = await folio.call('POST', `/api/admin/blog/webhooks/events/${failed.id}/redeliver`, { token: admin })
    expect(again.body.code).toBe('0000')
    expect(again.body.data).toMatchObject({ redeliveryOf: failed.id, eventId: failed.eventId, attempts: 0 })
    expect(again.body.data.id).not.toBe(failed.id)
    const requests = await receiver.waitFor('/log', before + 1)
    const last = requests.at(-1)!
    expect(last.headers.get('x-folio-delivery')).toBe(String(again.body.data.id))
    expect(JSON.parse(last.body).id).toBe(failed.eventId)
    await waitForLog(folio, admin, (rs) => rs.find((r) => r.id === again.body.data.id)?.status === 'delivered')
    // The original keeps its history.
    const original = await folio.call('GET', `/api/admin/blog/webhooks/events/${failed.id}`, { token: admin })
    expect(original.body.data).toMatchObject({ status: 'failed', attempts: 2 })
    expect(original.body.data.attemptLog).toHaveLength(2)

    expect((await folio.call('POST', '/api/admin/blog/webhooks/events/999/redeliver', { token: admin })).body.code).toBe('BLOG_NOT_FOUND')
    expect((await folio.call('POST', '/api/admin/blog/webhooks/events/abc/redeliver', { token: admin })).status).toBe(400)
  })
})

describe('webhook CLI', () => {
  test('add, list, deliveries and redeliver', async () => {
    const added = await folio.cli(
      'webhook',
      'add',
      '--url',
      receiver.url('/cli'),
      '--secret',
      SECRET,
      '--events',
      'blog.post.published,blog.post.deleted',
    )
    expect(added).toMatchObject({ code: 0, stderr: '' })
    const id = Number(/added webhook receiver (\d+)/.exec(added.stdout)![1])
    const disabled = await folio.cli(
      'webhook',
      'add',
      '--url',
      receiver.url('/cli-off'),
      '--secret',
      SECRET,
      '--events',
      'blog.*',
      '--disabled',
    )
    expect(disabled.code).toBe(0)

    const list = await folio.cli('webhook', 'list')
    expect(list.code).toBe(0)
    expect(list.stdout).not.toContain(SECRET)
    expect(list.stdout).toContain(`${id}\t${receiver.url('/cli')}\tblog.post.published,blog.post.deleted\tenabled`)
    expect(list.stdout).toContain(`${receiver.url('/cli-off')}\tblog.*\tdisabled`)

    const published = await publishNewPost(folio, admin, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await receiver.waitFor('/cli', 1)
    const records = await waitForLog(folio, admin, (rs) => rs.some((r) => r.receiverId === id && r.status === 'delivered'))
    const delivery = records.find((r) => r.receiverId === id)
    const deliveries = await folio.cli('webhook', 'deliveries', '--status', 'delivered')
    expect(deliveries.code).toBe(0)
    expect(deliveries.stdout).toContain(`${delivery.id}\tdelivered\tblog.post.published\t${receiver.url('/cli')}\tattempts 1/2\tHTTP 200`)
    expect(deliveries.stdout).not.toContain('\tfailed\t')

    const redelivered = await folio.cli('webhook', 'redeliver', String(delivery.id))
    expect(redelivered.code).toBe(0)
    expect(redelivered.stdout).toMatch(new RegExp(`queued delivery \\d+ \\(redelivery of ${delivery.id}\\)`))
    // The running server's worker picks it up from SQLite at its next poll.
    const requests = await receiver.waitFor('/cli', 2)
    expect(JSON.parse(requests[1]!.body).post.id).toBe(published.id)
  })

  test('bad input: one clear line and a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['webhook', 'add', '--url', 'ftp://x', '--secret', SECRET, '--events', 'blog.*'], /url/],
      [['webhook', 'add', '--url', receiver.url('/y'), '--secret', 'short', '--events', 'blog.*'], /secret/],
      [['webhook', 'add', '--url', receiver.url('/y'), '--secret', SECRET, '--events', 'blog.nope'], /events/],
      [['webhook', 'add', '--url', receiver.url('/y'), '--secret', SECRET], /--events/],
      [['webhook', 'add', '--url', receiver.url('/y'), '--secret', SECRET, '--events', 'blog.*', '--bogus'], /bogus/],
      [['webhook', 'deliveries', '--status', 'done'], /--status/],
      [['webhook', 'deliveries', '--page', '0'], /--page/],
      [['webhook', 'redeliver'], /id/],
      [['webhook', 'redeliver', 'x'], /id/],
      [['webhook', 'redeliver', '999'], /No webhook delivery 999/],
    ]
    for (const [args, message] of cases) {
      const out = await folio.cli(...args)
      expect(out.code).not.toBe(0)
      expect(out.stderr.trim().split('\n')).toHaveLength(1)
      expect(out.stderr).toMatch(message)
    }
    expect((await folio.cli('webhook', 'list')).stdout).not.toContain('/y')
  })
})
