import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { maximalBody } from '../support/adversarial.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'

/** The adversarial bodies that cost the most, sanitizing and media scan included (test/security/corpus/cpu.json). */
const HEAVY = ['unclosed <', 'many images', 'many links']

describe('SEO checks run off the request thread (default SEO_WORKERS)', () => {
  let folio: Folio
  let token: string
  let categoryId: number
  let authorId: number
  let slug: string

  beforeAll(async () => {
    folio = await startFolio()
    token = await folio.token('blog:write', 'blog:publish')
    ;({ categoryId, authorId } = await seedTaxonomy(folio, token))
    slug = (await publishNewPost(folio, token, publishablePost(categoryId, authorId))).slug
  })
  afterAll(() => folio.dispose())

  test('while maximal adversarial checks are in flight, anonymous reads and /healthz keep being answered; the checks still answer', async () => {
    let answered = 0
    const heavy = HEAVY.map((name) =>
      folio
        .call('POST', '/api/v1/blog/posts/check', {
          token,
          body: publishablePost(categoryId, authorId, { contentHtml: maximalBody(name) }),
        })
        .finally(() => answered++),
    )
    // Reads one after another until the first heavy check answers (at most 100); each recorded with whether all were still in flight.
    const reads: { status: number; inFlight: boolean }[] = []
    for (let i = 0; answered === 0 && i < 100; i++) {
      const res = await fetch(`${folio.url}${i % 2 ? '/healthz' : `/api/v1/blog/posts/${slug}`}`)
      await res.arrayBuffer()
      reads.push({ status: res.status, inFlight: answered === 0 })
    }
    const checks = await Promise.all(heavy)
    for (const res of checks) {
      expect(res.status).toBe(200)
      expect(res.body.code).toBe('0000')
      expect(res.body.data.items).toHaveLength(33)
      expect(res.body.data.canPublish).toBe(false)
    }
    const whileHeavy = reads.filter((read) => read.inFlight)
    // With the checks on the request thread (SEO_WORKERS=0) a reader gets in only between their passes: once or twice.
    expect(whileHeavy.length).toBeGreaterThanOrEqual(20)
    expect(whileHeavy.every((read) => read.status === 200)).toBe(true)
  })

  test('a burst of 25 concurrent saves (a script creating drafts) is queued on one thread, not refused SEO_BUSY', async () => {
    const saves = await Promise.all(
      Array.from({ length: 25 }, () =>
        folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...publishablePost(categoryId, authorId), status: 0 } }),
      ),
    )
    expect(saves.map((res) => `${res.status} ${res.body.code}`)).toEqual(Array(25).fill('200 0000'))
  })
})

/** Time stamps differ between two servers; everything else must not. */
const timeless = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(timeless)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key]) => !/(At|Time)$/.test(key))
            .map(([key, v]) => [key, timeless(v)]),
        )
      : value

describe('the pool and the request thread (SEO_WORKERS=0) answer the same', () => {
  let pooled: Folio
  let inline: Folio
  beforeAll(async () => {
    ;[pooled, inline] = await Promise.all([startFolio(), startFolio({ SEO_WORKERS: '0' })])
  })
  afterAll(() => Promise.all([pooled.dispose(), inline.dispose()]))

  /** The same script of writes and checks against one server: each answer as the client sees it. */
  async function script(folio: Folio): Promise<unknown[]> {
    const token = await folio.token('blog:write', 'blog:publish')
    const categoryId = (await folio.call('POST', '/api/v1/blog/categories/save', { token, body: { nameEn: 'Guides', nameZh: '指南' } }))
      .body.data.id
    const authorId = (await folio.call('POST', '/api/v1/blog/authors/save', { token, body: { name: 'Jane Doe', language: 'en' } })).body
      .data.id
    const post = (overrides: Record<string, unknown>) => ({
      ...publishablePost(categoryId, authorId),
      title: 'How to Choose a Static Site Generator',
      slug: 'choose-ssg',
      ...overrides,
    })
    const answers: unknown[] = []
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await folio.call(method, path, { token, body })
      answers.push({ path, status: res.status, retryAfter: res.headers.get('retry-after'), body: timeless(res.body) })
      return res.body?.data
    }
    const saved = await call('POST', '/api/v1/blog/posts/save', post({ status: 0 }))
    await call('POST', '/api/v1/blog/posts/check', { ...post({}), id: saved.id, slug: '' })
    await call(
      'POST',
      '/api/v1/blog/posts/check',
      post({ contentHtml: undefined, contentMarkdown: '# Static sites\n\nSee [docs](https://example.org).' }),
    )
    await call('POST', '/api/v1/blog/posts/check', post({ contentHtml: maximalBody('many passive starts') }))
    await call('POST', '/api/v1/blog/posts/check', post({ contentHtml: maximalBody('100,000 nested div (refused)') }))
    await call('POST', '/api/v1/blog/posts/save', post({ slug: '', coverAlt: '', title: 'Second post', status: 0 }))
    await call('POST', `/api/v1/blog/posts/${saved.id}/publish`)
    await call('POST', '/api/v1/blog/posts/save', post({ title: 'Blocked', slug: 'blocked', status: 1, contentHtml: '<p>Too short.</p>' }))
    const blocked = await call('POST', '/api/v1/blog/posts/save', post({ title: 'Fixable', slug: 'Not A Slug!', seoTitle: '', status: 0 }))
    await call('POST', `/api/v1/blog/posts/${blocked.id}/autofix`)
    return answers
  }

  test('a script of saves, checks, a publish, refusals and an autofix gets the same answers from both', async () => {
    const [viaPool, viaThread] = await Promise.all([script(pooled), script(inline)])
    expect(viaPool).toHaveLength(10)
    expect(JSON.stringify(viaPool)).toBe(JSON.stringify(viaThread))
    expect((viaPool[4] as { status: number }).status).toBe(400)
  })
})
