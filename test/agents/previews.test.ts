import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import * as S from '../../src/modules/posts/model.ts'
import { startCaddy, type Caddy } from '../support/caddy.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

setDefaultTimeout(30_000)
// The server runs on a movable clock (docs/testing.md, "Time"): a token expires when the test moves
// the server's time past it, not after a wait on the real clock.

const B = '/api/v1/blog'
const SITE_URL = 'https://blog.example.com'
let folio: Folio
let caddy: Caddy
let token: string
let taxonomy: { categoryId: number; authorId: number }

beforeAll(async () => {
  folio = await startFolio({ SITE_URL, TRUST_PROXY: '1' }, { movableClock: true })
  caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  taxonomy = await seedTaxonomy(folio, token)
})
afterAll(async () => {
  await caddy?.stop()
  await folio?.dispose()
})

async function draft(overrides: Record<string, unknown> = {}) {
  const saved = await folio.call('POST', `${B}/posts/save`, {
    token,
    body: { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), ...overrides, status: 0 },
  })
  expect(saved.body.code).toBe('0000')
  return saved.body.data
}

const preview = (id: number, body?: unknown, as = token) => folio.call('POST', `${B}/posts/${id}/preview`, { token: as, body })
/** The preview path of a token, read anonymously from `origin` (the API or Caddy). */
const read = async (origin: string, token: string) => {
  const response = await fetch(`${origin}${B}/previews/${token}`)
  return { status: response.status, headers: response.headers, body: (await response.json()) as any }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('draft previews', () => {
  test('a preview token reads the current stored draft in the public detail shape, unstored and unindexed, through Caddy too', async () => {
    const post = await draft({ title: 'Preview me: the draft title' })
    const asked = folio.now()
    const created = await preview(post.id)
    const answered = folio.now()
    expect(created.status).toBe(200)
    const { token: previewToken, url, expiresAt, postId } = created.body.data
    expect([...Value.Errors(S.PreviewRes, created.body.data)]).toEqual([])
    const described = JSON.parse((await folio.call('GET', `${B}/openapi.json`)).text).paths
    expect([Object.keys(described[`${B}/posts/{id}/preview`]), Object.keys(described[`${B}/previews/{token}`])]).toEqual([
      ['post'],
      ['get'],
    ])
    expect(postId).toBe(post.id)
    expect(url).toBe(`${SITE_URL}${B}/previews/${previewToken}`)
    const expiry = Date.parse(expiresAt.replace(' ', 'T') + 'Z')
    // An hour after the server's time while it answered (in whole seconds).
    expect(expiry).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000 + 3600_000)
    expect(expiry).toBeLessThanOrEqual(answered + 3600_000)

    for (const origin of [folio.url, caddy.url]) {
      const answer = await read(origin, previewToken)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(answer.headers.get('x-robots-tag')).toBe('noindex')
      expect(answer.body.data).toMatchObject({ id: post.id, status: 0, title: 'Preview me: the draft title', slug: post.slug })
      expect(answer.body.data.contentHtml).toBe(post.contentHtml)
      expect('scheduledAt' in answer.body.data).toBe(false)
    }
    // The same token shows later saves: it names the post, not a copy.
    await folio.call('POST', `${B}/posts/save`, {
      token,
      body: {
        ...publishablePost(taxonomy.categoryId, taxonomy.authorId),
        id: post.id,
        slug: post.slug,
        title: 'Preview me: edited',
        status: 0,
      },
    })
    expect((await read(caddy.url, previewToken)).body.data.title).toBe('Preview me: edited')

    // Publishing other posts renders artifacts; none of them holds the token or the draft.
    await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    await folio.cli('rebuild')
    const files = filesUnder(folio.cacheDir)
    expect(files.length).toBeGreaterThan(5)
    for (const file of files) {
      const text = readFileSync(file, 'latin1')
      expect([file, text.includes(previewToken)]).toEqual([file, false])
      expect([file, text.includes('Preview me')]).toEqual([file, false])
    }
  })

  test("the same token shows the draft as the public site's post page: noindex, never cached, never an artifact", async () => {
    const post = await draft({ title: 'Page preview: the draft title' })
    const { token: previewToken, pageUrl } = (await preview(post.id)).body.data
    expect(pageUrl).toBe(`${SITE_URL}/preview/${previewToken}`)
    for (const origin of [folio.url, caddy.url]) {
      const response = await fetch(`${origin}/preview/${previewToken}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('x-robots-tag')).toBe('noindex')
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      const html = await response.text()
      expect(html).toContain('<meta name="robots" content="noindex')
      expect(html).toContain('Page preview: the draft title')
    }
    // A refused token is the envelope's 400, as on the JSON preview.
    const tampered = await fetch(`${folio.url}/preview/${previewToken.slice(0, -2)}xx`)
    expect(tampered.status).toBe(400)
    expect(((await tampered.json()) as any).code).toBe('PREVIEW_TOKEN_INVALID')
    await folio.cli('rebuild')
    for (const file of filesUnder(folio.cacheDir))
      expect([file, readFileSync(file, 'latin1').includes('Page preview')]).toEqual([file, false])
  })

  test('expired, tampered and malformed tokens and deleted posts are refused in the envelope', async () => {
    const post = await draft()
    const { token: good } = (await preview(post.id, { expiresIn: 1 })).body.data
    const [id, expiry, signature] = good.split('.')
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A')
    for (const bad of [
      `${id}.${expiry}.${flipped}`,
      `${Number(id) + 1}.${expiry}.${signature}`,
      `${id}.${Number(expiry) + 3600}.${signature}`,
      'nonsense',
    ]) {
      const answer = await read(folio.url, bad)
      expect([answer.status, answer.body.code, answer.body.data.errors[0].field]).toEqual([400, 'PREVIEW_TOKEN_INVALID', 'token'])
    }
    await folio.advanceClock(1100)
    const expired = await read(caddy.url, good)
    expect([expired.status, expired.body.code]).toEqual([400, 'PREVIEW_TOKEN_EXPIRED'])

    const other = await draft()
    const { token: live } = (await preview(other.id)).body.data
    expect((await read(folio.url, live)).status).toBe(200)
    await folio.call('GET', `${B}/posts/delete?id=${other.id}`, { token })
    const deleted = await read(folio.url, live)
    expect([deleted.status, deleted.body.code]).toEqual([400, 'BLOG_NOT_FOUND'])
  })

  test('expiresIn is bounded, the scope is blog:write, and tokens survive a restart', async () => {
    const post = await draft()
    for (const expiresIn of [0, 604_801, 'soon']) {
      const answer = await preview(post.id, { expiresIn })
      expect([answer.status, answer.body.data.errors[0].field]).toEqual([400, 'expiresIn'])
    }
    const week = await preview(post.id, { expiresIn: 604_800 })
    expect(week.body.code).toBe('0000')
    expect((await preview(999_999)).body.code).toBe('BLOG_NOT_FOUND')
    expect((await preview(post.id, undefined, '')).status).toBe(401)
    expect((await preview(post.id, undefined, await folio.token('blog:read'))).status).toBe(403)

    await folio.stop()
    await folio.restart()
    const answer = await read(folio.url, week.body.data.token)
    expect([answer.status, answer.body.data.id]).toEqual([200, post.id])
  })
})
