import { describe, expect, test } from 'bun:test'
import { expectNoPrivateData, expectPublicComment, freshIp, useEngagementWorld } from './support.ts'

const w = useEngagementWorld()

const adminRecord = async (id: number) => {
  const list = await w.folio.call('GET', `/api/admin/blog/comments?postId=${w.post.id}&size=100`, { token: w.admin })
  return list.body.data.records.find((c: { id: number }) => c.id === id)
}

/** Posts a comment, expects it stored as rejected with the reason only an admin sees. */
async function expectRejected(body: Record<string, unknown>, reason: RegExp, ip = freshIp()) {
  const res = await w.comment(w.post.id, { authorName: 'Reader', ...body }, ip)
  expect(res.body.code).toBe('0000')
  expectPublicComment(res.body.data)
  expect(res.body.data).toMatchObject({ status: 2, statusText: 'Rejected' })
  expectNoPrivateData(res, ip)
  expect((await adminRecord(res.body.data.id)).spamReason).toMatch(reason)
  return res.body.data.id as number
}

describe('obvious spam is rejected at once, with a reason for admins only', () => {
  test('more than two links', async () => {
    await expectRejected({ content: 'Deals: https://a.example http://b.example www.c.example' }, /^links: 3 links/)
    const two = await w.comment(w.post.id, { authorName: 'Reader', content: 'See https://a.example and https://b.example' })
    expect(two.body.data.status).toBe(0)
  })

  test('a link in the author name', async () => {
    await expectRejected({ authorName: 'https://cheap.example', content: 'Great post' }, /^links: a link in the author name/)
  })

  test('a known spam phrase, in any case', async () => {
    await expectRejected({ content: 'Best online CASINO bonus for you' }, /^phrase: "casino"/)
  })

  test('shouting in capitals', async () => {
    await expectRejected({ content: 'THIS IS THE WORST ARTICLE I HAVE EVER READ!!!' }, /^shouting/)
    const short = await w.comment(w.post.id, { authorName: 'Reader', content: 'WOW, thanks!' })
    expect(short.body.data.status).toBe(0)
  })

  test('the same content again from the same IP; another IP may say the same', async () => {
    const ip = freshIp()
    const first = await w.comment(w.post.id, { authorName: 'Reader', content: 'Me too.' }, ip)
    expect(first.body.data.status).toBe(0)
    await expectRejected({ content: 'Me too.' }, /^repeat/, ip)
    expect((await w.comment(w.post.id, { authorName: 'Other', content: 'Me too.' })).body.data.status).toBe(0)
  })

  test('rejected spam is never shown or counted', async () => {
    const id = await expectRejected({ content: 'viagra viagra' }, /^phrase/)
    const engagement = await w.engagement(w.post.id)
    expect(engagement.body.data.comments.map((c: { id: number }) => c.id)).not.toContain(id)
    expect(engagement.body.data.commentCount).toBe(0)
  })
})

describe('the per-IP posting limit', () => {
  test('five comments in ten minutes, then rejected, while other IPs are unaffected', async () => {
    const ip = freshIp()
    for (let i = 1; i <= 5; i++)
      expect((await w.comment(w.post.id, { authorName: 'Busy', content: `Thought ${i}` }, ip)).body.data.status).toBe(0)
    await expectRejected({ content: 'Thought 6' }, /^rate: more than 5 comments from this IP in 10 minutes/, ip)
    expect((await w.comment(w.post.id, { authorName: 'Calm', content: 'Thought 6' })).body.data.status).toBe(0)
  })

  test('a parallel burst from one IP cannot slip past it', async () => {
    const ip = freshIp()
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => w.comment(w.post.id, { authorName: 'Flood', content: `Burst ${i}` }, ip)),
    )
    const statuses = burst.map((r) => r.body.data.status)
    expect(statuses.filter((s) => s === 0)).toHaveLength(5)
    expect(statuses.filter((s) => s === 2)).toHaveLength(7)
  })
})
