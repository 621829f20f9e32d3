import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'

let folio: Folio
let writer: string // blog:write only
let publisher: string // blog:write + blog:publish
let categoryId: number
let authorId: number

beforeAll(async () => {
  folio = await startFolio()
  writer = await folio.token('blog:write')
  publisher = await folio.token('blog:write', 'blog:publish')
  ;({ categoryId, authorId } = await seedTaxonomy(folio, publisher))
})
afterAll(() => folio.dispose())

const save = (body: Record<string, unknown>, token = publisher) => folio.call('POST', '/api/v1/blog/posts/save', { token, body })
const publish = (id: number, token = publisher) => folio.call('POST', `/api/v1/blog/posts/${id}/publish`, { token })
const operate = (id: number, status: number, token = publisher) =>
  folio.call('GET', `/api/v1/blog/posts/operate?id=${id}&status=${status}`, { token })
const remove = (id: number, token = publisher) => folio.call('GET', `/api/v1/blog/posts/delete?id=${id}`, { token })
const detail = (slug: string, language = 'en') => folio.call('GET', `/api/v1/blog/posts/${encodeURIComponent(slug)}?language=${language}`)
const listed = async (query = '') =>
  (await folio.call('GET', `/api/v1/blog/posts?size=100&${query}`)).body.data.records.map((p: { id: number }) => p.id)

async function draft(overrides: Record<string, unknown> = {}) {
  const res = await save({ ...publishablePost(categoryId, authorId), ...overrides, status: 0 }, writer)
  expect(res.body.code).toBe('0000')
  return res.body.data
}

describe('spec 3.1 transitions', () => {
  test('save without id creates a draft that is not public', async () => {
    const post = await draft()
    expect(post.status).toBe(0)
    expect(post.publishedAt).toBeNull()
    expect(post.id).toBeGreaterThan(0)
    expect((await detail(post.slug)).status).toBe(400)
    expect(await listed()).not.toContain(post.id)
  })

  test('the post response carries every field of BlogPostRes', async () => {
    const post = await draft({ tagIds: [] })
    for (const field of [
      'id',
      'authorId',
      'categoryId',
      'language',
      'slug',
      'alternateSlug',
      'title',
      'summary',
      'seoTitle',
      'seoDescription',
      'canonicalUrl',
      'robots',
      'coverImage',
      'coverAlt',
      'ogTitle',
      'ogDescription',
      'ogImage',
      'answerSummary',
      'author',
      'contentHtml',
      'contentText',
      'relatedProductIds',
      'reviewedAt',
      'publishedAt',
      'createTime',
      'updatedTime',
      'status',
      'seoScore',
      'aeoScore',
      'clapCount',
      'commentCount',
      'indexable',
      'keyTakeaways',
      'faqBlocks',
      'toc',
      'tags',
      'category',
      'authorProfile',
      'relatedPosts',
    ])
      expect(post).toHaveProperty(field)
    expect(post.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
    expect(post.toc.map((t: { id: string }) => t.id)).toEqual([
      'what-is-a-static-site-generator',
      'how-do-you-compare-build-speed',
      'which-tools-did-we-test',
      'sources',
    ])
    expect(post.contentHtml).toContain('<h2 id="what-is-a-static-site-generator">')
    expect(post.seoScore).toBe(100)
    expect(post.aeoScore).toBe(100)
    expect(post.faqBlocks).toHaveLength(2)
    expect(post.category.id).toBe(categoryId)
    expect(post.authorProfile.id).toBe(authorId)
    expect(post.contentText).toContain('The team reads the docs')
  })

  test('save with id updates, keeping absent optional fields', async () => {
    const post = await draft({ ogTitle: 'Kept' })
    const res = await save(
      { id: post.id, language: 'en', title: post.title + ' (updated)', contentHtml: post.contentHtml, categoryId },
      writer,
    )
    expect(res.body.code).toBe('0000')
    expect(res.body.data.title).toEndWith('(updated)')
    expect(res.body.data.ogTitle).toBe('Kept')
    expect(res.body.data.slug).toBe(post.slug)
  })

  test('updating an unknown post is a 400', async () => {
    const res = await save({ ...publishablePost(categoryId, authorId), id: 987654 }, writer)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('BLOG_NOT_FOUND')
  })

  test('save with status=1 publishes (write + publish) and sets publishedAt once', async () => {
    const res = await save({ ...publishablePost(categoryId, authorId), status: 1 })
    expect(res.body.code).toBe('0000')
    const post = res.body.data
    expect(post.status).toBe(1)
    expect(post.publishedAt).toMatch(/^\d{4}-/)
    expect((await detail(post.slug)).body.data.id).toBe(post.id)
    expect(await listed()).toContain(post.id)
    // Offline and back again: the first publication time stays. It is moved a year back while the
    // post is offline, so a publish that stamped "now" again would show, without waiting for the
    // clock to pass a second.
    expect((await operate(post.id, 2)).body.data).toBe(true)
    const db = new Database(join(folio.dataDir, 'folio.db'))
    try {
      db.run('PRAGMA busy_timeout = 5000')
      expect(db.run("UPDATE posts SET published_at = '2025-03-01 09:30:00' WHERE id = ?", [post.id]).changes).toBe(1)
    } finally {
      db.close()
    }
    expect((await operate(post.id, 1)).body.data).toBe(true)
    expect((await detail(post.slug)).body.data.publishedAt).toBe('2025-03-01 09:30:00')
  })

  test('save with status=1 without blog:publish is 403 and changes nothing', async () => {
    const post = await draft()
    const res = await save({ ...publishablePost(categoryId, authorId), id: post.id, slug: post.slug, status: 1 }, writer)
    expect(res.status).toBe(403)
    expect((await detail(post.slug)).status).toBe(400)
  })

  test('save with status=2 takes a post offline with blog:write', async () => {
    const post = await draft()
    expect((await publish(post.id)).body.data.status).toBe(1)
    const res = await save({ ...publishablePost(categoryId, authorId), id: post.id, slug: post.slug, status: 2 }, writer)
    expect(res.body.data.status).toBe(2)
    expect((await detail(post.slug)).status).toBe(400)
    expect(await listed()).not.toContain(post.id)
  })

  test('posts/{id}/publish publishes a saved draft and reports what it refreshed', async () => {
    const post = await draft()
    const res = await publish(post.id)
    expect(res.status).toBe(200)
    for (const field of ['id', 'slug', 'title', 'status', 'publishedAt', 'canonicalUrl', 'robots', 'seoScore'])
      expect(res.body.data).toHaveProperty(field)
    for (const flag of ['sitemapUpdated', 'rssUpdated', 'webhookQueued']) expect(typeof res.body.data[flag]).toBe('boolean')
    expect(res.body.data.status).toBe(1)
    // Publishing again is harmless and refreshes nothing.
    const again = await publish(post.id)
    expect(again.body.data).toMatchObject({ status: 1, sitemapUpdated: false, rssUpdated: false, webhookQueued: false })
  })

  test('publish, operate and delete need blog:publish', async () => {
    const post = await draft()
    expect((await publish(post.id, writer)).status).toBe(403)
    expect((await operate(post.id, 1, writer)).status).toBe(403)
    expect((await remove(post.id, writer)).status).toBe(403)
    expect((await publish(post.id, '')).status).toBe(401)
  })

  test('operate answers a boolean, is never cached, and validates its query', async () => {
    const post = await draft()
    const res = await operate(post.id, 1)
    expect(res.body).toEqual({ code: '0000', message: 'success', data: true })
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect((await operate(post.id, 3)).body.data.errors[0].field).toBe('status')
    expect((await operate(999999, 2)).body.code).toBe('BLOG_NOT_FOUND')
    expect((await folio.call('GET', '/api/v1/blog/posts/operate?status=1', { token: publisher })).body.data.errors[0].field).toBe('id')
  })

  test('delete removes a post from public discovery and from further writes', async () => {
    const post = await draft()
    await publish(post.id)
    const res = await remove(post.id)
    expect(res.body.data).toBe(true)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    expect((await detail(post.slug)).status).toBe(400)
    expect(await listed()).not.toContain(post.id)
    expect((await publish(post.id)).body.code).toBe('BLOG_NOT_FOUND')
    expect((await remove(post.id)).body.code).toBe('BLOG_NOT_FOUND')
    // Its slug is free again for a new post.
    expect((await save({ ...publishablePost(categoryId, authorId), slug: post.slug }, writer)).body.code).toBe('0000')
  })
})

describe('the publish gate', () => {
  const blocked = {
    slug: 'blocked-draft-example',
    coverAlt: '',
    contentHtml: `<p>${Array(12).fill('The team reads the docs and picks the best tool.').join(' ')}</p>`,
  }

  test('the spec example: missing cover alt, thin content, duplicate slug', async () => {
    const existing = await draft({ slug: 'existing-post' })
    const post = await draft({ ...blocked })
    // Make the slug a duplicate the way the catalogue's E1 does.
    await folio.call('POST', '/api/v1/blog/posts/save', {
      token: writer,
      body: { ...publishablePost(categoryId, authorId), ...blocked, id: post.id, slug: 'blocked-draft-example', status: 0 },
    })
    for (const attempt of [
      () => save({ ...publishablePost(categoryId, authorId), ...blocked, slug: existing.slug, id: post.id, status: 1 }),
    ]) {
      const res = await attempt()
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('BLOG_SEO_BLOCKED')
      expect(res.body.data.canPublish).toBe(false)
      expect(res.body.data.failedItems).toEqual(['cover_alt', 'thin_content', 'duplicate_slug'])
    }
    // publish and operate run the same gate on the stored draft, and nothing changes.
    for (const res of [await publish(post.id), await operate(post.id, 1)]) {
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('BLOG_SEO_BLOCKED')
      expect(res.body.data.failedItems).toEqual(['cover_alt', 'thin_content'])
      expect(res.body.data.failures[0]).toMatchObject({ code: 'cover_alt', targetField: 'coverAlt', autoFixType: 'cover_alt' })
    }
    const stored = await save({ ...publishablePost(categoryId, authorId), ...blocked, id: post.id, status: 0 }, writer)
    expect(stored.body.data.status).toBe(0)
    expect(stored.body.data.publishedAt).toBeNull()
  })

  test('a duplicate slug on a draft save is a 400 naming slug', async () => {
    const first = await draft()
    const res = await save({ ...publishablePost(categoryId, authorId), slug: first.slug.toUpperCase() }, writer)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('DUPLICATE_SLUG')
    expect(res.body.data.errors[0].field).toBe('slug')
  })

  test('a blank slug is generated from the title, readable for Chinese, and unique', async () => {
    const en = await draft({ slug: '', title: 'Choosing Between Hugo and Eleventy Today' })
    expect(en.slug).toBe('choosing-between-hugo-and-eleventy-today')
    const again = await draft({ slug: '', title: 'Choosing Between Hugo and Eleventy Today' })
    expect(again.slug).toBe('choosing-between-hugo-and-eleventy-today-2')
    const zh = await draft({ slug: '', language: 'zh', title: '如何用 Docker 部署 Node.js 应用' })
    expect(zh.slug).toBe('ru-he-yong-docker-bu-shu-node-js-ying-yong')
  })
})

describe('slugs and redirects', () => {
  test('a changed slug of a published post answers 301 from the old one', async () => {
    const post = await draft()
    await publish(post.id)
    const renamed = `${post.slug}-renamed`
    const res = await save({ ...publishablePost(categoryId, authorId), id: post.id, slug: renamed })
    expect(res.body.data.slug).toBe(renamed)
    const old = await detail(post.slug)
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toBe(`/api/v1/blog/posts/${renamed}?language=en`)
    expect((await detail(renamed)).body.data.id).toBe(post.id)
    // The old slug stays reserved for this post.
    expect((await save({ ...publishablePost(categoryId, authorId), slug: post.slug }, writer)).body.code).toBe('DUPLICATE_SLUG')
    // Taking the old slug back frees it from the history.
    await save({ ...publishablePost(categoryId, authorId), id: post.id, slug: post.slug })
    expect((await detail(post.slug)).status).toBe(200)
    expect((await detail(renamed)).status).toBe(301)
  })

  test('fixed paths win over {slug}', async () => {
    expect((await folio.call('GET', '/api/v1/blog/posts/operate?id=1&status=1')).status).toBe(401)
    expect((await folio.call('GET', '/api/v1/blog/posts/delete?id=1')).status).toBe(401)
    expect((await folio.call('POST', '/api/v1/blog/posts/check', { body: {} })).status).toBe(401)
    expect((await folio.call('POST', '/api/v1/blog/posts/save', { body: {} })).status).toBe(401)
  })

  test('the detail language defaults to en and a zh post is found only with language=zh', async () => {
    const zh = await draft({
      language: 'zh',
      slug: `zh-only-${Date.now()}`,
      title: '静态网站生成器怎么选',
      contentHtml: '<p>' + '我们先读文档，再挑选最合适的工具。'.repeat(30) + '</p>',
    })
    await save({ id: zh.id, language: 'zh', title: zh.title, contentHtml: zh.contentHtml, categoryId, status: 2 })
    expect((await detail(zh.slug)).status).toBe(400)
  })
})

describe('the public list', () => {
  let ids: number[] = []
  let tagId: number
  let otherCategory: number

  beforeAll(async () => {
    tagId = (await folio.call('POST', '/api/v1/blog/tags/save', { token: writer, body: { nameEn: 'Listing', language: 'en' } })).body.data
      .id
    otherCategory = (await folio.call('POST', '/api/v1/blog/categories/save', { token: writer, body: { nameEn: 'Other list' } })).body.data
      .id
    const make = async (overrides: Record<string, unknown>) => {
      const post = await draft(overrides)
      await publish(post.id)
      return post.id
    }
    ids = [
      await make({ tagIds: [tagId], title: 'Findable needle in the title, part one' }),
      await make({ categoryId: otherCategory, summary: 'A summary with a haystack word in it. '.repeat(4) }),
      await make({ indexable: false }),
      await make({ robots: 'noindex,follow' }),
    ]
  })

  test('only published, crawlable posts; noindex ones stay readable by slug', async () => {
    const all = await listed()
    expect(all).toContain(ids[0])
    expect(all).toContain(ids[1])
    expect(all).not.toContain(ids[2])
    expect(all).not.toContain(ids[3])
    const page = (await folio.call('GET', '/api/v1/blog/posts')).body.data
    expect(page.current).toBe(1)
    expect(page.size).toBe(10)
    expect(page.total).toBeGreaterThanOrEqual(2)
    expect(page.records[0]).not.toHaveProperty('contentHtml')
  })

  test('filters: category, author, tag, keyword, language', async () => {
    expect(await listed(`categoryId=${otherCategory}`)).toEqual([ids[1]])
    expect(await listed(`tagId=${tagId}`)).toEqual([ids[0]])
    expect(await listed(`keyword=needle`)).toEqual([ids[0]])
    expect(await listed(`keyword=haystack`)).toEqual([ids[1]])
    expect(await listed(`keyword=${encodeURIComponent('100%_')}`)).toEqual([])
    expect(await listed(`authorId=${authorId}`)).toEqual(expect.arrayContaining([ids[0], ids[1]]))
    expect(await listed('language=zh')).not.toContain(ids[0])
  })

  test('paging', async () => {
    const first = (await folio.call('GET', '/api/v1/blog/posts?size=1&current=1')).body.data
    const second = (await folio.call('GET', '/api/v1/blog/posts?size=1&current=2')).body.data
    expect(first.records).toHaveLength(1)
    expect(second.records[0].id).not.toBe(first.records[0].id)
    expect((await folio.call('GET', '/api/v1/blog/posts?size=100')).status).toBe(200)
    expect((await folio.call('GET', '/api/v1/blog/posts?size=101')).status).toBe(400)
  })

  test('the detail carries related posts: older ones of the same category', async () => {
    const a = await draft()
    await publish(a.id)
    const b = await draft()
    await publish(b.id)
    const related = (await detail(b.slug)).body.data.relatedPosts.map((p: { id: number }) => p.id)
    expect(related[0]).toBe(a.id)
    expect((await detail(a.slug)).body.data.relatedPosts.map((p: { id: number }) => p.id)).not.toContain(b.id)
  })
})
