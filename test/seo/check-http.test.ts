import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'
import { F, publishablePost, seedTaxonomy } from '../support/fixtures.ts'

let folio: Folio
let token: string
let categoryId: number
let authorId: number

beforeAll(async () => {
  folio = await startFolio({ SITE_URL: 'https://blog.example.com' })
  token = await folio.token('blog:write', 'blog:publish')
  ;({ categoryId, authorId } = await seedTaxonomy(folio, token))
  await folio.call('POST', '/api/v1/blog/posts/save', { token, body: publishablePost(categoryId, authorId, { slug: 'existing-post' }) })
})
afterAll(() => folio.dispose())

const check = (body: Record<string, unknown>, t = token) => folio.call('POST', '/api/v1/blog/posts/check', { token: t, body })
const rows = (table: string) => {
  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  try {
    return (db.query(`select count(*) as n from ${table}`).get() as { n: number }).n
  } finally {
    db.close()
  }
}

/** The catalogue's E1: E0 with a duplicate slug, no cover alt and a 120-word body. */
const e1 = () =>
  publishablePost(categoryId, authorId, { slug: 'existing-post', coverAlt: '', contentHtml: `<p>${Array(12).fill(F).join(' ')}</p>` })

describe('POST posts/check', () => {
  test('the spec example draft: full BlogSeoCheckRes, three blocking items, nothing saved', async () => {
    const before = rows('posts')
    const res = await check(e1())
    expect(res.status).toBe(200)
    const data = res.body.data
    expect(rows('posts')).toBe(before)
    expect(data).toMatchObject({
      score: 74,
      aeoScore: 80,
      scoreVersion: 'folio-seo-1',
      totalWeight: 100,
      passedWeight: 74,
      canPublish: false,
    })
    expect(data.scoreSummary).toBe(
      'Score 74/100 (needs work), AEO 80/100. 25 of 33 checks passed; 3 blocking: cover_alt, thin_content, duplicate_slug.',
    )
    expect(data.items).toHaveLength(33)
    expect(data.items.filter((i: { passed: boolean }) => !i.passed).map((i: { code: string }) => i.code)).toEqual([
      'cover_alt',
      'thin_content',
      'content_length',
      'internal_links',
      'outbound_links',
      'question_headings',
      'citations',
      'duplicate_slug',
    ])
    for (const field of ['generatedSlug', 'generatedSeoTitle', 'generatedSeoDescription', 'generatedOgTitle', 'generatedExcerpt', 'toc'])
      expect(data).toHaveProperty(field)
    const coverAlt = data.items.find((i: { code: string }) => i.code === 'cover_alt')
    expect(coverAlt).toMatchObject({
      code: 'cover_alt',
      key: 'cover_alt',
      passed: false,
      blocking: true,
      severity: 'error',
      weight: 4,
      targetStep: 'basic',
      targetField: 'coverAlt',
      autoFixType: 'cover_alt',
      message: 'Cover image has no usable alt text.',
    })
    for (const item of data.items) for (const field of ['label', 'message', 'why', 'fixAction']) expect(typeof item[field]).toBe('string')
  })

  test('a clean draft passes everything; toc items carry text and title', async () => {
    const data = (await check(publishablePost(categoryId, authorId))).body.data
    expect(data).toMatchObject({ score: 100, aeoScore: 100, canPublish: true })
    expect(data.toc[0]).toEqual({
      id: 'what-is-a-static-site-generator',
      text: 'What is a static site generator?',
      title: 'What is a static site generator?',
      level: 2,
    })
    expect(data.items.every((i: { severity: string; autoFixType: unknown }) => i.severity === 'pass' && i.autoFixType === null)).toBe(true)
  })

  test('with an id, the body is laid over the stored post', async () => {
    const saved = (
      await folio.call('POST', '/api/v1/blog/posts/save', { token, body: publishablePost(categoryId, authorId, { coverAlt: '' }) })
    ).body.data
    // Only the title is sent besides the required fields; coverAlt '' comes from the stored post.
    const data = (await check({ id: saved.id, language: 'en', title: saved.title, contentHtml: saved.contentHtml, categoryId })).body.data
    expect(data.items.find((i: { code: string }) => i.code === 'cover_alt').passed).toBe(false)
    expect(data.items.find((i: { code: string }) => i.code === 'duplicate_slug').passed).toBe(true)
    expect((await check({ id: 999999, language: 'en', title: 'x', contentHtml: '', categoryId })).body.code).toBe('BLOG_NOT_FOUND')
  })

  test('scopes and bad input', async () => {
    expect((await check(e1(), '')).status).toBe(401)
    expect((await check(e1(), await folio.token('blog:read'))).status).toBe(403)
    expect((await check({ language: 'en', title: 'x' })).body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'categoryId',
      'contentHtml',
    ])
  })

  test('hostile HTML is judged as it would be stored (sanitized), and never breaks the check', async () => {
    const body = publishablePost(categoryId, authorId, {
      contentHtml: `${'<div>'.repeat(200)}<script>alert(1)</script><p onclick="x()">${'<b>'.repeat(50)}`,
    })
    const res = await check(body)
    expect(res.status).toBe(200)
    expect(res.body.data.items).toHaveLength(33)
    // Nesting past 256 elements is refused before any work, naming the field.
    const deep = await check({ ...body, contentHtml: `${'<div>'.repeat(5000)}${'<b>'.repeat(3000)}` })
    expect([deep.status, deep.body.data.errors]).toEqual([
      400,
      [{ field: 'contentHtml', message: 'elements nested deeper than 256 levels' }],
    ])
  })
})

describe('the gate follows the check', () => {
  test('fixing what the check reports, by its autoFixType and fixAction, makes the draft publishable', async () => {
    const draft = (await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...e1(), slug: 'some-new-draft' } })).body.data
    const blocked = await folio.call('POST', `/api/v1/blog/posts/${draft.id}/publish`, { token })
    expect(blocked.body).toMatchObject({
      code: 'BLOG_SEO_BLOCKED',
      data: { canPublish: false, failedItems: ['cover_alt', 'thin_content'] },
    })
    const report = (await check({ ...e1(), id: draft.id, slug: draft.slug })).body.data
    const fixed = {
      ...e1(),
      id: draft.id,
      slug: draft.slug,
      coverAlt: draft.title,
      contentHtml: publishablePost(categoryId, authorId).contentHtml,
    }
    expect(report.items.find((i: { code: string }) => i.code === 'cover_alt').autoFixType).toBe('cover_alt')
    expect((await folio.call('POST', '/api/v1/blog/posts/save', { token, body: fixed })).body.data.seoScore).toBe(100)
    const published = await folio.call('POST', `/api/v1/blog/posts/${draft.id}/publish`, { token })
    expect(published.body.data).toMatchObject({ status: 1, seoScore: 100, aeoScore: 100 })
  })
})
