import { describe, expect, test } from 'bun:test'
import { expectFieldError, publicDetail, SECRET_AGENT, SECRET_EMAIL, useEngagementWorld } from './support.ts'

const w = useEngagementWorld()

/** Live counts from the engagement endpoint, and the public detail once its scheduled refresh caught up. */
const counts = async (target: { id: number; slug: string }) => {
  const engagement = (await w.engagement(target.id)).body.data
  const detail = (await publicDetail(w.folio, target.slug, (post) => post.commentCount === engagement.commentCount)).body.data
  return {
    engagement: engagement.commentCount as number,
    shown: engagement.comments.length as number,
    detail: detail.commentCount as number,
  }
}

describe('admin scope', () => {
  test('listing and moderating need a blog:admin token: 401 without one, 403 with a lesser one', async () => {
    const writer = await w.folio.token('blog:read', 'blog:write', 'blog:publish')
    const posted = await w.comment(w.post.id, { authorName: 'Ann', content: 'Scope check' })
    const id = posted.body.data.id
    const list = (token?: string) => w.folio.call('GET', '/api/admin/blog/comments', { token })
    expect((await list()).status).toBe(401)
    expect((await list('folio_not_a_real_token')).status).toBe(401)
    expect((await list(writer)).status).toBe(403)
    expect((await w.folio.call('POST', `/api/admin/blog/comments/${id}/moderate`, { body: { action: 'approve' } })).status).toBe(401)
    expect((await w.moderate(id, 'approve', writer)).status).toBe(403)
    // Authorization outranks a bad body: the caller learns nothing about the input.
    expect((await w.moderate(id, 'bogus', writer)).status).toBe(403)
    const listed = await w.folio.call('GET', `/api/admin/blog/comments?status=0&postId=${w.post.id}`, { token: w.admin })
    expect(listed.body.data.records.find((c: { id: number }) => c.id === id).status).toBe(0)
  })
})

describe('moderation', () => {
  test('approving counts the comment at once on the engagement endpoint, and in the post detail on its refresh; rejecting takes it back', async () => {
    const target = await w.publishPost()
    const posted = await w.comment(target.id, { authorName: 'Ann', content: 'Count me' })
    expect(await counts(target)).toEqual({ engagement: 0, shown: 0, detail: 0 })

    const approved = await w.moderate(posted.body.data.id, 'approve')
    expect(approved.body.data).toMatchObject({ status: 1, statusText: 'Approved' })
    expect(approved.body.data.moderateTime).toMatch(/^\d{4}-/)
    expect(await counts(target)).toEqual({ engagement: 1, shown: 1, detail: 1 })

    // A repeated decision changes nothing.
    await w.moderate(posted.body.data.id, 'approve')
    expect(await counts(target)).toEqual({ engagement: 1, shown: 1, detail: 1 })

    const rejected = await w.moderate(posted.body.data.id, 'reject')
    expect(rejected.body.data).toMatchObject({ status: 2, statusText: 'Rejected' })
    expect(await counts(target)).toEqual({ engagement: 0, shown: 0, detail: 0 })
    await w.moderate(posted.body.data.id, 'reject')
    expect(await counts(target)).toEqual({ engagement: 0, shown: 0, detail: 0 })
  })

  test('rejecting a comment takes its replies along, and a reply cannot be approved under a rejected parent', async () => {
    const target = await w.publishPost()
    const parent = await w.approvedComment(target.id)
    const reply = await w.approvedComment(target.id, { parentId: parent })
    const pendingReply = (await w.comment(target.id, { authorName: 'P', content: 'Pending reply', parentId: parent })).body.data.id
    const sibling = await w.approvedComment(target.id)
    expect((await counts(target)).engagement).toBe(3)

    await w.moderate(parent, 'reject')
    expect(await counts(target)).toEqual({ engagement: 1, shown: 1, detail: 1 })
    const thread = await w.folio.call('GET', `/api/admin/blog/comments?postId=${target.id}&status=2`, { token: w.admin })
    expect(thread.body.data.records.map((c: { id: number }) => c.id).sort()).toEqual([parent, reply, pendingReply].sort())

    const refused = await w.moderate(reply, 'approve')
    expectFieldError(refused, 'action')
    await w.moderate(parent, 'approve')
    expect((await w.moderate(reply, 'approve')).body.data.status).toBe(1)
    expect((await w.engagement(target.id)).body.data.comments.map((c: { id: number }) => c.id)).toEqual([parent, reply, sibling])
  })

  test('the admin record carries what moderation needs; the list filters by status and post and pages', async () => {
    const target = await w.publishPost()
    const ip = '10.200.3.4'
    const first = await w.comment(target.id, { authorName: 'Ann', content: 'One', authorEmail: SECRET_EMAIL }, ip)
    const second = await w.comment(target.id, { authorName: 'Bob', content: 'Two' })
    await w.moderate(second.body.data.id, 'approve')

    const all = await w.folio.call('GET', `/api/admin/blog/comments?postId=${target.id}`, { token: w.admin })
    expect(all.body.data).toMatchObject({ total: 2, size: 20, current: 1 })
    expect(all.headers.get('cache-control')).toBe('private, no-store')
    expect(all.body.data.records.map((c: { id: number }) => c.id)).toEqual([second.body.data.id, first.body.data.id])
    expect(all.body.data.records[1]).toMatchObject({
      postTitle: expect.stringContaining('Static Site Generator'),
      authorEmail: SECRET_EMAIL,
      ip,
      userAgent: SECRET_AGENT,
      spamReason: '',
      status: 0,
      statusText: 'Pending',
    })

    const pending = await w.folio.call('GET', `/api/admin/blog/comments?postId=${target.id}&status=0`, { token: w.admin })
    expect(pending.body.data.records.map((c: { id: number }) => c.id)).toEqual([first.body.data.id])
    const paged = await w.folio.call('GET', `/api/admin/blog/comments?postId=${target.id}&size=1&current=2`, { token: w.admin })
    expect(paged.body.data).toMatchObject({ total: 2, size: 1, current: 2 })
    expect(paged.body.data.records.map((c: { id: number }) => c.id)).toEqual([first.body.data.id])
  })

  test('bad moderation input is a 400 naming the field', async () => {
    const get = (query: string) => w.folio.call('GET', `/api/admin/blog/comments?${query}`, { token: w.admin })
    expectFieldError(await get('status=3'), 'status')
    expectFieldError(await get('postId=x'), 'postId')
    expectFieldError(await get('size=101'), 'size')
    const id = (await w.comment(w.post.id, { authorName: 'Ann', content: 'Moderate me badly' })).body.data.id
    expectFieldError(await w.moderate(id, 'destroy'), 'action')
    expectFieldError(await w.folio.call('POST', `/api/admin/blog/comments/${id}/moderate`, { token: w.admin, body: {} }), 'action')
    const unknown = await w.moderate(99999999, 'approve')
    expect(unknown.status).toBe(400)
    expect(unknown.body.code).toBe('BLOG_NOT_FOUND')
  })
})
