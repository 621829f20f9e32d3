import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import * as S from '../../src/modules/posts/model.ts'
import { CLAIM_MS } from '../../src/modules/posts/scheduler.ts'
import { formatTime } from '../../src/shared/time.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { WAIT_LIMIT_MS } from '../support/until.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { addReceiver, startReceiver, TEST_ENV, type Received } from '../webhooks/receiver.ts'

// End-to-end: the real server's scheduler, real receivers, a real kill -9. The server runs on a
// movable clock (docs/testing.md, "Time"): a schedule falls due when the test moves the server's
// time past it, never by waiting on the real clock.
// Above the bounded waits (30 s: test/support/until.ts), so a slow wait fails with its own message.
setDefaultTimeout(60_000)

const B = '/api/v1/blog'
const receiver = startReceiver()

/** A server with a token for every scope and a category and author to hang posts on. */
async function startBlog() {
  const folio = await startFolio(TEST_ENV, { movableClock: true })
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  return { folio, token, taxonomy: await seedTaxonomy(folio, token) }
}

let blog: Awaited<ReturnType<typeof startBlog>>
let folio: Folio
let token: string
beforeAll(async () => {
  blog = await startBlog()
  ;({ folio, token } = blog)
})
afterAll(async () => {
  await folio.dispose()
  receiver.stop()
})

/** How far ahead a schedule is set: whole seconds, so at least 59 s ahead of the server's clock when it arrives. */
const AHEAD_MS = 60_000
/** A UTC time AHEAD_MS after `on`'s clock reads, in the documented shape. */
const ahead = (on: Folio) => formatTime(new Date(on.now() + AHEAD_MS))
const events = (path: string) => receiver.on(path).map((r: Received) => JSON.parse(r.body))

async function saveDraft(on: typeof blog, overrides: Record<string, unknown> = {}) {
  const saved = await on.folio.call('POST', `${B}/posts/save`, {
    token: on.token,
    body: { ...publishablePost(on.taxonomy.categoryId, on.taxonomy.authorId), ...overrides, status: 0 },
  })
  expect(saved.body.code).toBe('0000')
  return saved.body.data
}

const schedule = (on: Folio, id: number, body: unknown, as = token) => on.call('POST', `${B}/posts/${id}/schedule`, { token: as, body })

/** Polls the public detail until it answers and its artifact is written (the render follows the commit), bounded. */
async function waitPublic(on: Folio, slug: string, timeoutMs = WAIT_LIMIT_MS) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const detail = await on.call('GET', `${B}/posts/${slug}`)
    if (detail.body?.code === '0000' && existsSync(join(on.cacheDir, `${B}/posts/${slug}/@`))) return detail.body.data
    if (Date.now() > deadline) throw new Error(`${slug} was not published within ${timeoutMs} ms: ${detail.text}`)
    await Bun.sleep(100)
  }
}

describe('scheduled publishing', () => {
  test('a scheduled draft goes out when due exactly as publish does: artifact, webhook, schedule cleared', async () => {
    await addReceiver(folio, token, { url: receiver.url('/due'), events: ['blog.post.published'] })
    const draft = await saveDraft(blog)
    expect(draft.scheduledAt).toBeNull()
    const publishAt = ahead(folio)
    const scheduled = await schedule(folio, draft.id, { publishAt })
    expect(scheduled.status).toBe(200)
    expect(scheduled.body.data).toMatchObject({ id: draft.id, status: 0, scheduledAt: publishAt, unpublishAt: null })
    expect([...Value.Errors(S.WriterPostRes, scheduled.body.data)]).toEqual([])
    const described = JSON.parse((await folio.call('GET', `${B}/openapi.json`)).text).paths
    expect(Object.keys(described[`${B}/posts/{id}/schedule`])).toEqual(['post'])
    expect((await folio.call('GET', `${B}/posts/${draft.slug}`)).body.code).toBe('BLOG_NOT_FOUND')

    await folio.advanceClock(AHEAD_MS)
    const published = await waitPublic(folio, draft.slug)
    expect(published.status).toBe(1)
    // The public shape never carries the schedule.
    expect('scheduledAt' in published).toBe(false)
    const [delivery] = await receiver.waitFor('/due', 1)
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'blog.post.published', post: { id: draft.id, status: 1 } })
    // Publishing again changes nothing and shows the schedule gone.
    const again = await folio.call('POST', `${B}/posts/${draft.id}/publish`, { token })
    expect(again.body.data).toMatchObject({ status: 1, scheduledAt: null, webhookQueued: false })
  })

  test('a schedule the SEO gate blocks leaves a draft, is cleared, and sends blog.post.schedule_failed with failedItems', async () => {
    await addReceiver(folio, token, { url: receiver.url('/failed'), events: ['blog.post.schedule_failed'] })
    const draft = await saveDraft(blog, { coverAlt: '' })
    const publishAt = ahead(folio)
    expect((await schedule(folio, draft.id, { publishAt })).body.data.scheduledAt).toBe(publishAt)
    await folio.advanceClock(AHEAD_MS)

    await receiver.waitFor('/failed', 1)
    const [failure] = events('/failed')
    expect(failure).toMatchObject({ event: 'blog.post.schedule_failed', scheduledAt: publishAt, post: { id: draft.id, status: 0 } })
    expect(failure.failedItems).toContain('cover_alt')
    const after = await folio.call('POST', `${B}/posts/save`, {
      token,
      body: { id: draft.id, ...publishablePost(blog.taxonomy.categoryId, null), slug: draft.slug, coverAlt: '' },
    })
    expect(after.body.data).toMatchObject({ status: 0, scheduledAt: null })
  })

  test('unpublishAt takes a published post offline when due, with blog.post.unpublished', async () => {
    await addReceiver(folio, token, { url: receiver.url('/offline'), events: ['blog.post.unpublished'] })
    const post = await publishNewPost(folio, token, publishablePost(blog.taxonomy.categoryId, blog.taxonomy.authorId))
    const unpublishAt = ahead(folio)
    expect((await schedule(folio, post.id, { unpublishAt })).body.data).toMatchObject({ status: 1, unpublishAt, scheduledAt: null })
    await folio.advanceClock(AHEAD_MS)
    await receiver.waitFor('/offline', 1)
    expect(events('/offline')[0]).toMatchObject({ event: 'blog.post.unpublished', post: { id: post.id, status: 2 } })
    // The event is queued with the change, its artifacts rendered after it (on a render thread): read once they are.
    await folio.rendered()
    expect((await folio.call('GET', `${B}/posts/${post.slug}`)).body.code).toBe('BLOG_NOT_FOUND')
  })

  test('a draft can be scheduled online and offline at once; null cancels; manual publish clears the publish schedule', async () => {
    const draft = await saveDraft(blog)
    const both = await schedule(folio, draft.id, { publishAt: '2099-01-01 10:00:00', unpublishAt: '2099-01-02T10:00:00Z' })
    expect(both.body.data).toMatchObject({ scheduledAt: '2099-01-01 10:00:00', unpublishAt: '2099-01-02 10:00:00' })
    const cancelled = await schedule(folio, draft.id, { unpublishAt: null })
    expect(cancelled.body.data).toMatchObject({ scheduledAt: '2099-01-01 10:00:00', unpublishAt: null })
    const published = await folio.call('POST', `${B}/posts/${draft.id}/publish`, { token })
    expect(published.body.data).toMatchObject({ status: 1, scheduledAt: null })
  })

  test('bad schedules are a 400 naming the field; scopes and missing posts are refused', async () => {
    const draft = await saveDraft(blog)
    const field = async (body: unknown, name: string, id = draft.id) => {
      const answer = await schedule(folio, id, body)
      expect([answer.status, answer.body.code, answer.body.data?.errors?.[0]?.field]).toEqual([400, 'VALIDATION_FAILED', name])
      return answer.body.message as string
    }
    expect(await field({ publishAt: 'tomorrow' }, 'publishAt')).toContain('2026-03-01 10:00:00')
    expect(await field({ publishAt: '2026-02-31 10:00:00' }, 'publishAt')).toContain('UTC time')
    expect(await field({ publishAt: '2020-01-01 00:00:00' }, 'publishAt')).toContain('later than now')
    expect(await field({}, 'publishAt')).toContain('null to cancel')
    expect(await field({ publishAt: 12 }, 'publishAt')).toBeTruthy()
    expect(await field({ unpublishAt: '2099-01-01 00:00:00' }, 'unpublishAt')).toContain('not published')
    expect(await field({ publishAt: '2099-01-02 00:00:00', unpublishAt: '2099-01-01 00:00:00' }, 'unpublishAt')).toContain(
      'later than publishAt',
    )
    const live = await publishNewPost(folio, token, publishablePost(blog.taxonomy.categoryId, blog.taxonomy.authorId))
    expect(await field({ publishAt: '2099-01-01 00:00:00' }, 'publishAt', live.id)).toContain('already published')

    const missing = await schedule(folio, 999_999, { publishAt: '2099-01-01 00:00:00' })
    expect([missing.status, missing.body.code]).toEqual([400, 'BLOG_NOT_FOUND'])
    expect((await schedule(folio, draft.id, { publishAt: '2099-01-01 00:00:00' }, '')).status).toBe(401)
    const writer = await folio.token('blog:write')
    const forbidden = await schedule(folio, draft.id, { publishAt: '2099-01-01 00:00:00' }, writer)
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN'])
  })
})

test('a schedule that falls due during a kill -9 is published once, at the next start', async () => {
  const crashing = await startBlog()
  const own = crashing.folio
  try {
    await addReceiver(own, crashing.token, { url: receiver.url('/crash'), events: ['blog.*'] })
    const draft = await saveDraft(crashing)
    const publishAt = ahead(own)
    expect((await schedule(own, draft.id, { publishAt }, crashing.token)).body.data.scheduledAt).toBe(publishAt)
    await own.stop(true)
    // Down while the schedule falls due.
    await own.advanceClock(AHEAD_MS)
    await own.restart()

    const published = await waitPublic(own, draft.slug)
    expect(published.publishedAt >= publishAt).toBe(true)
    await receiver.waitFor('/crash', 1)
    // Later scheduler runs, past the claim's expiry (CLAIM_MS), still publish it only once: the
    // signal that they ran is a second schedule, due after that, carried out.
    const next = await saveDraft(crashing)
    expect((await schedule(own, next.id, { publishAt: ahead(own) }, crashing.token)).status).toBe(200)
    await own.advanceClock(CLAIM_MS + AHEAD_MS)
    await waitPublic(own, next.slug)
    await receiver.waitFor('/crash', 2)
    expect(events('/crash').map((e) => [e.event, e.post.id])).toEqual([
      ['blog.post.published', draft.id],
      ['blog.post.published', next.id],
    ])
  } finally {
    await own.dispose()
  }
})
