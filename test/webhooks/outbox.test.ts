import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test'
import { F } from '../support/fixtures.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, startReceiver, TEST_ENV } from './receiver.ts'

// End-to-end: real server, real receiver, real retry delays.
// Above the bounded waits (30 s: test/support/until.ts), so a slow wait fails with its own message.
setDefaultTimeout(60_000)

let folio: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
const receiver = startReceiver()

beforeAll(async () => {
  folio = await startFolio({ ...TEST_ENV })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

const deliveryCount = async () => (await folio.call('GET', '/api/admin/blog/webhooks/events', { token })).body.data.total as number

/** A draft the SEO gate refuses (thin content, no cover alt), whichever engine runs the check. */
const blockedDraft = () =>
  publishablePost(taxonomy.categoryId, taxonomy.authorId, {
    title: 'BLOCKED thin draft about generators',
    coverAlt: '',
    contentHtml: `<p>${F}</p>`,
  })

describe('the webhook outbox', () => {
  test('webhookQueued is false while no receiver listens, true once one does, false again for a no-op publish', async () => {
    const before = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    expect(before.webhookQueued).toBe(false)
    expect(await deliveryCount()).toBe(0)

    await addReceiver(folio, token, { url: receiver.url('/hook'), events: ['blog.post.published'] })
    const after = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    expect(after.webhookQueued).toBe(true)
    await receiver.waitFor('/hook', 1)

    const again = await folio.call('POST', `/api/v1/blog/posts/${after.id}/publish`, { token })
    expect(again.body.code).toBe('0000')
    expect(again.body.data.webhookQueued).toBe(false)
    expect(await deliveryCount()).toBe(1)
  })

  test('a publish refused by the SEO gate rolls back and queues nothing', async () => {
    const count = await deliveryCount()
    const draft = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...blockedDraft(), status: 0 } })
    expect(draft.body.code).toBe('0000')
    const refused = await folio.call('POST', `/api/v1/blog/posts/${draft.body.data.id}/publish`, { token })
    expect(refused.body.code).toBe('BLOG_SEO_BLOCKED')
    const refusedSave = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...blockedDraft(), status: 1 } })
    expect(refusedSave.body.code).toBe('BLOG_SEO_BLOCKED')
    const refusedOperate = await folio.call('GET', `/api/v1/blog/posts/operate?id=${draft.body.data.id}&status=1`, { token })
    expect(refusedOperate.body.code).toBe('BLOG_SEO_BLOCKED')
    // Outbox rows commit with the change or not at all: no row now is no delivery ever.
    expect(await deliveryCount()).toBe(count)
    expect(receiver.on('/hook')).toHaveLength(1)
  })

  test('the outbox row is committed with the change: queued while no worker runs, sent after a kill -9 and restart', async () => {
    await folio.stop(true)
    folio.env.WEBHOOK_WORKER = 'off'
    await folio.restart()
    const published = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    expect(published.webhookQueued).toBe(true)
    // Committed and waiting: no attempt made while no worker runs.
    const queued = (await folio.call('GET', '/api/admin/blog/webhooks/events', { token })).body.data.records as any[]
    expect(queued.find((r) => r.postId === published.id)).toMatchObject({ status: 'pending', attempts: 0 })
    expect(receiver.on('/hook')).toHaveLength(1)
    await folio.stop(true)
    folio.env.WEBHOOK_WORKER = 'embedded'
    await folio.restart()
    const requests = await receiver.waitFor('/hook', 2)
    expect(JSON.parse(requests[1]!.body).post.id).toBe(published.id)
  })
})
