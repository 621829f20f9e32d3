import { Database } from 'bun:sqlite'
import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { DUPLICATE_WINDOW_MS } from '../../src/modules/engagement/reactions.ts'
import { publishablePost } from '../support/fixtures.ts'
import { expectFieldError, publicDetail, useEngagementWorld } from './support.ts'

const w = useEngagementWorld()

const clap = (clientKey: string, count = 1) => ({ reactionKey: 'clap', clientKey, count })
const total = async (postId: number) => (await w.engagement(postId)).body.data.clapCount as number

describe('claps', () => {
  test('a clap adds its count; the response is the engagement with the new total, and the post detail follows on its refresh', async () => {
    const post = await w.publishPost()
    const res = await w.clap(post.id, clap('reader-a', 3))
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ postId: post.id, clapCount: 3, commentCount: 0, comments: [] })
    expect((await w.clap(post.id, clap('reader-b', 2))).body.data.clapCount).toBe(5)
    expect((await publicDetail(w.folio, post.slug, (p) => p.clapCount === 5)).body.data.clapCount).toBe(5)
  })

  test('the same clientKey fired 20 times in parallel counts once', async () => {
    const post = await w.publishPost()
    const burst = await Promise.all(Array.from({ length: 20 }, () => w.clap(post.id, clap('double-clicker', 4))))
    for (const res of burst) {
      expect(res.status).toBe(200)
      expect(res.body.data.clapCount).toBe(4)
    }
    expect(await total(post.id)).toBe(4)
  })

  test('the same Idempotency-Key fired 20 times in parallel counts once; a fresh key counts again', async () => {
    const post = await w.publishPost()
    await Promise.all(Array.from({ length: 20 }, () => w.clap(post.id, clap('reader', 2), 'click-1')))
    expect(await total(post.id)).toBe(2)
    expect((await w.clap(post.id, clap('reader', 2), 'click-2')).body.data.clapCount).toBe(4)
    // Retried later, the first request still counts once: its first answer is replayed.
    const retried = await w.clap(post.id, clap('reader', 2), 'click-1')
    expect(retried.headers.get('idempotent-replayed')).toBe('true')
    expect(retried.body.data.clapCount).toBe(2)
    expect(await total(post.id)).toBe(4)
  })

  test('an Idempotency-Key reused for a different request is a 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const post = await w.publishPost()
    await w.clap(post.id, clap('reader', 1), 'k-1')
    const reused = await w.clap(post.id, clap('reader', 5), 'k-1')
    expect(reused.status).toBe(422)
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED')
    expect(await total(post.id)).toBe(1)
  })

  test('distinct clientKeys in parallel all count: no update is lost', async () => {
    const post = await w.publishPost()
    await Promise.all(Array.from({ length: 30 }, (_, i) => w.clap(post.id, clap(`reader-${i}`, 2))))
    expect(await total(post.id)).toBe(60)
  })

  test('without a key, an identical request counts again once the 10-second duplicate window has passed', async () => {
    const post = await w.publishPost()
    await w.clap(post.id, clap('patient', 1))
    expect((await w.clap(post.id, clap('patient', 1))).body.data.clapCount).toBe(1)
    // A different count is a different request.
    expect((await w.clap(post.id, clap('patient', 2))).body.data.clapCount).toBe(3)
    // The window is judged from the stored acceptance time: moving this post's claps back by the
    // whole window is the window having passed, without waiting ten seconds on the real clock.
    const db = new Database(join(w.folio.dataDir, 'folio.db'))
    try {
      db.run('PRAGMA busy_timeout = 5000')
      const moved = db.run('UPDATE claps SET accepted_at = accepted_at - ? WHERE post_id = ?', [DUPLICATE_WINDOW_MS, post.id])
      expect(moved.changes).toBe(2)
    } finally {
      db.close()
    }
    expect((await w.clap(post.id, clap('patient', 1))).body.data.clapCount).toBe(4)
  })

  test('one clientKey gives a post at most 50 claps; the overflow is dropped, others still count', async () => {
    const post = await w.publishPost()
    for (let i = 0; i < 4; i++) await w.clap(post.id, clap('fan', 10), `fan-${i}`)
    expect((await w.clap(post.id, clap('fan', 9), 'fan-4')).body.data.clapCount).toBe(49)
    expect((await w.clap(post.id, clap('fan', 10), 'fan-5')).body.data.clapCount).toBe(50)
    const capped = await w.clap(post.id, clap('fan', 10), 'fan-6')
    expect(capped.status).toBe(200)
    expect(capped.body.data.clapCount).toBe(50)
    expect((await w.clap(post.id, clap('someone-else', 1))).body.data.clapCount).toBe(51)
    // The cap is per post.
    const other = await w.publishPost()
    expect((await w.clap(other.id, clap('fan', 10))).body.data.clapCount).toBe(10)
  })
})

describe('bad reactions are a 400 naming the field, and change nothing', () => {
  let postId: number
  beforeAll(async () => {
    postId = (await w.publishPost()).id
    await w.clap(postId, clap('base', 1))
  })

  const cases: Array<[string, unknown, string]> = [
    ['an unknown reaction key', { reactionKey: 'like', clientKey: 'k', count: 1 }, 'reactionKey'],
    ['no reaction key', { clientKey: 'k', count: 1 }, 'reactionKey'],
    ['count 0', clap('k', 0), 'count'],
    ['a negative count', clap('k', -1), 'count'],
    ['count above 10', clap('k', 11), 'count'],
    ['a fractional count', clap('k', 1.5), 'count'],
    ['a null count', { reactionKey: 'clap', clientKey: 'k', count: null }, 'count'],
    ['no count', { reactionKey: 'clap', clientKey: 'k' }, 'count'],
    ['no clientKey', { reactionKey: 'clap', count: 1 }, 'clientKey'],
    ['an empty clientKey', clap('', 1), 'clientKey'],
    ['a clientKey over 64 characters', clap('k'.repeat(65), 1), 'clientKey'],
    ['a clientKey with spaces', clap('has space', 1), 'clientKey'],
  ]
  for (const [name, body, field] of cases) {
    test(name, async () => {
      expectFieldError(await w.clap(postId, body), field)
      expect(await total(postId)).toBe(1)
    })
  }

  test('a malformed Idempotency-Key', async () => {
    expectFieldError(await w.clap(postId, clap('k', 1), 'not allowed!'), 'Idempotency-Key')
    expect(await total(postId)).toBe(1)
  })

  test('unknown and unpublished posts', async () => {
    const draft = await w.folio.call('POST', '/api/v1/blog/posts/save', {
      token: w.admin,
      body: { ...publishablePost(w.categoryId, w.authorId), status: 0 },
    })
    for (const id of [987654, draft.body.data.id]) {
      const res = await w.clap(id, clap('k', 1))
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('BLOG_NOT_FOUND')
    }
  })
})
