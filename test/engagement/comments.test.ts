import { describe, expect, test } from 'bun:test'
import { publishablePost, publishableZhPost, publishNewPost } from '../support/fixtures.ts'
import {
  expectFieldError,
  expectNoPrivateData,
  expectPublicComment,
  freshIp,
  publicDetail,
  SECRET_EMAIL,
  useEngagementWorld,
} from './support.ts'

const w = useEngagementWorld()

const commentTotal = async () =>
  (await w.folio.call('GET', '/api/admin/blog/comments?size=1', { token: w.admin })).body.data.total as number

describe('posting a comment', () => {
  test('a new comment is pending, in the public shape, and not shown or counted until approved', async () => {
    const ip = freshIp()
    const res = await w.comment(w.post.id, { authorName: '  Ada  ', content: ' First! ', authorEmail: SECRET_EMAIL }, ip)
    expect(res.status).toBe(200)
    expect(res.body.code).toBe('0000')
    const comment = res.body.data
    expectPublicComment(comment)
    expect(comment).toMatchObject({
      postId: w.post.id,
      parentId: null,
      authorName: 'Ada',
      content: 'First!',
      status: 0,
      statusText: 'Pending',
    })
    expect(comment.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expectNoPrivateData(res, ip)

    const before = await w.engagement(w.post.id)
    expect(before.body.data.comments.map((c: { id: number }) => c.id)).not.toContain(comment.id)

    expect((await w.moderate(comment.id, 'approve')).body.data.status).toBe(1)
    const after = await w.engagement(w.post.id)
    const shown = after.body.data.comments.find((c: { id: number }) => c.id === comment.id)
    expectPublicComment(shown)
    expect(shown).toMatchObject({ status: 1, statusText: 'Approved', content: 'First!' })
    expect(after.body.data.commentCount).toBe(before.body.data.commentCount + 1)
    expectNoPrivateData(after, ip)
  })

  test('statusText speaks the language of the post', async () => {
    const zh = await publishNewPost(w.folio, w.admin, publishableZhPost(w.categoryId, w.authorId))
    const posted = (await w.comment(zh.id, { authorName: '小明', content: '写得很好！' })).body.data
    expect(posted).toMatchObject({ status: 0, statusText: '待审核' })
    await w.moderate(posted.id, 'approve')
    const shown = (await w.engagement(zh.id)).body.data.comments[0]
    expect(shown).toMatchObject({ status: 1, statusText: '已通过', content: '写得很好！' })
  })

  test('the post detail carries counts only, never commenters or their comments', async () => {
    const target = await w.publishPost()
    const ip = freshIp()
    const posted = await w.comment(target.id, { authorName: 'Bo', content: 'Nice read.', authorEmail: SECRET_EMAIL }, ip)
    await w.moderate(posted.body.data.id, 'approve')
    const detail = await publicDetail(w.folio, target.slug, (post) => post.commentCount === 1)
    expect(detail.status).toBe(200)
    expect(detail.body.data.commentCount).toBe(1)
    expect(detail.body.data.comments).toBeUndefined()
    expectNoPrivateData(detail, ip)
    expect(detail.text).not.toContain('Nice read.')
  })

  test('a script tag comes back inert: the exact plain text, in JSON that no browser sniffs as HTML', async () => {
    const attack = '<script>alert("pwned")</script><img src=x onerror="alert(1)"> & </p>'
    const posted = await w.comment(w.post.id, { authorName: '<b>Mallory</b>', content: attack })
    expect(posted.status).toBe(200)
    expect(posted.body.data.content).toBe(attack)
    expect(posted.body.data.authorName).toBe('<b>Mallory</b>')
    await w.moderate(posted.body.data.id, 'approve')
    for (const res of [posted, await w.engagement(w.post.id)]) {
      expect(res.headers.get('content-type')).toStartWith('application/json')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    const shown = (await w.engagement(w.post.id)).body.data.comments.find((c: { id: number }) => c.id === posted.body.data.id)
    expect(shown.content).toBe(attack)
  })

  describe('bad input is a 400 naming the field, and stores nothing', () => {
    const cases: Array<[string, unknown, string]> = [
      ['missing authorName', { content: 'Hello' }, 'authorName'],
      ['blank authorName', { authorName: ' \n\t ', content: 'Hello' }, 'authorName'],
      ['authorName over 80 characters', { authorName: 'n'.repeat(81), content: 'Hello' }, 'authorName'],
      ['authorName not a string', { authorName: 42, content: 'Hello' }, 'authorName'],
      ['missing content', { authorName: 'Ann' }, 'content'],
      ['blank content', { authorName: 'Ann', content: '   ' }, 'content'],
      ['content over 5000 characters', { authorName: 'Ann', content: 'c'.repeat(5001) }, 'content'],
      ['malformed authorEmail', { authorName: 'Ann', content: 'Hello', authorEmail: 'not-an-email' }, 'authorEmail'],
      ['authorEmail over 254 characters', { authorName: 'Ann', content: 'Hello', authorEmail: `${'e'.repeat(250)}@x.org` }, 'authorEmail'],
      ['parentId not a whole number', { authorName: 'Ann', content: 'Hello', parentId: 'one' }, 'parentId'],
      ['parentId zero', { authorName: 'Ann', content: 'Hello', parentId: 0 }, 'parentId'],
    ]
    for (const [name, body, field] of cases) {
      test(name, async () => {
        const before = await commentTotal()
        expectFieldError(await w.comment(w.post.id, body), field)
        expect(await commentTotal()).toBe(before)
      })
    }

    test('limits are inclusive: 80-character name and 5000-character content are taken', async () => {
      const res = await w.comment(w.post.id, { authorName: 'n'.repeat(80), content: 'c'.repeat(5000), authorEmail: null })
      expect(res.body.code).toBe('0000')
    })

    test('a body that is not JSON', async () => {
      const res = await w.folio.call('POST', `/api/v1/blog/posts/${w.post.id}/comments`, {
        body: '{"authorName": ',
        headers: { 'content-type': 'application/json' },
      })
      expect(res.status).toBe(400)
      expect(res.body.data.errors[0].field).toBe('body')
    })

    test('a post id that is not a number', async () => {
      expectFieldError(await w.folio.call('POST', '/api/v1/blog/posts/abc/comments', { body: { authorName: 'A', content: 'B' } }), 'id')
    })
  })

  describe('only published posts take comments', () => {
    const body = { authorName: 'Ann', content: 'Hello there' }

    test('an unknown post', async () => {
      const res = await w.comment(987654, body)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('BLOG_NOT_FOUND')
    })

    test('a draft, an offline and a deleted post', async () => {
      const draft = await w.folio.call('POST', '/api/v1/blog/posts/save', {
        token: w.admin,
        body: { ...publishablePost(w.categoryId, w.authorId), status: 0 },
      })
      const offline = await w.publishPost()
      await w.folio.call('GET', `/api/v1/blog/posts/operate?id=${offline.id}&status=2`, { token: w.admin })
      const deleted = await w.publishPost()
      await w.folio.call('GET', `/api/v1/blog/posts/delete?id=${deleted.id}`, { token: w.admin })
      for (const id of [draft.body.data.id, offline.id, deleted.id]) {
        const before = await commentTotal()
        const res = await w.comment(id, body)
        expect(res.status).toBe(400)
        expect(res.body.code).toBe('BLOG_NOT_FOUND')
        expect(await commentTotal()).toBe(before)
        expect((await w.engagement(id)).status).toBe(400)
      }
    })
  })
})

describe('replies', () => {
  test('a reply needs an approved parent on the same post', async () => {
    const other = await w.publishPost()
    const pending = await w.comment(w.post.id, { authorName: 'P', content: 'Still pending' })
    const otherParent = await w.approvedComment(other.id)
    const rejected = await w.comment(w.post.id, { authorName: 'R', content: 'To be rejected' })
    await w.moderate(rejected.body.data.id, 'reject')
    for (const parentId of [pending.body.data.id, otherParent, rejected.body.data.id, 99999999]) {
      const res = await w.comment(w.post.id, { authorName: 'Kid', content: 'A reply', parentId })
      expectFieldError(res, 'parentId')
    }
  })

  test('the engagement lists approved comments threaded: each parent, then its replies, oldest first', async () => {
    const thread = await w.publishPost()
    const first = await w.approvedComment(thread.id, { content: 'first' })
    const second = await w.approvedComment(thread.id, { content: 'second' })
    const replyToSecond = await w.approvedComment(thread.id, { content: 'reply to second', parentId: second })
    const replyToFirst = await w.approvedComment(thread.id, { content: 'reply to first', parentId: first })
    const nested = await w.approvedComment(thread.id, { content: 'reply to reply', parentId: replyToFirst })
    const laterReplyToFirst = await w.approvedComment(thread.id, { content: 'later reply to first', parentId: first })
    const pendingReply = await w.comment(thread.id, { authorName: 'P', content: 'pending reply', parentId: first })
    const res = await w.engagement(thread.id)
    const ids = res.body.data.comments.map((c: { id: number }) => c.id)
    expect(ids).toEqual([first, replyToFirst, nested, laterReplyToFirst, second, replyToSecond])
    expect(ids).not.toContain(pendingReply.body.data.id)
    expect(res.body.data.commentCount).toBe(6)
    for (const c of res.body.data.comments) expectPublicComment(c)
    expect(res.body.data.comments[1].parentId).toBe(first)
  })
})
