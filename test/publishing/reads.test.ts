import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { FOREIGN_RENDER_CHECK_MS } from '../../src/modules/publishing/memory.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

const B = '/api/v1/blog'
let folio: Folio
let token: string
let post: { id: number; slug: string; title: string }
beforeAll(async () => {
  // On a movable clock: the read cache looks at other processes' renders by it (FOREIGN_RENDER_CHECK_MS).
  folio = await startFolio({ SITE_URL: 'https://blog.example.org' }, { movableClock: true })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
})
afterAll(() => folio.dispose())

const read = (path: string, init: RequestInit = {}) => fetch(`${folio.url}${path}`, init)

describe('anonymous reads of artifacts (the fast path)', () => {
  test('a 200 carries validators, shared-cache headers, the safety headers and a request id', async () => {
    const answer = await read(`${B}/posts/${post.slug}`)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(answer.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate, s-maxage=60, stale-while-revalidate=60')
    expect(answer.headers.get('etag')).toMatch(/^"[0-9a-z]+"$/)
    expect(Date.parse(answer.headers.get('last-modified')!)).not.toBeNaN()
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(((await answer.json()) as { data: { slug: string } }).data.slug).toBe(post.slug)
  })

  test('If-None-Match and If-Modified-Since give a bodiless 304 with the validators; a stale ETag gets the bytes', async () => {
    const first = await read(`${B}/posts/${post.slug}`)
    const etag = first.headers.get('etag')!
    const lastModified = first.headers.get('last-modified')!
    const conditions: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': `W/${etag}, "other"` },
      { 'if-modified-since': lastModified },
    ]
    for (const headers of conditions) {
      const again = await read(`${B}/posts/${post.slug}`, { headers })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect(again.headers.get('last-modified')).toBe(lastModified)
      expect(again.headers.get('x-request-id')).toBeTruthy()
    }
    // If-None-Match decides when present, even with a current If-Modified-Since.
    const stale = await read(`${B}/posts/${post.slug}`, { headers: { 'if-none-match': '"stale"', 'if-modified-since': lastModified } })
    expect(stale.status).toBe(200)
    expect((await stale.text()).length).toBeGreaterThan(0)
  })

  test('HEAD answers the GET headers without a body', async () => {
    const get = await read(`${B}/posts/${post.slug}`)
    const head = await read(`${B}/posts/${post.slug}`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    for (const name of ['etag', 'last-modified', 'content-type', 'cache-control'])
      expect(head.headers.get(name)).toBe(get.headers.get(name))
    // The GET's length, not the empty body's (uncompressed on both sides).
    const plain = { 'accept-encoding': 'identity' }
    const full = await read(`${B}/posts/${post.slug}`, { headers: plain })
    const bare = await read(`${B}/posts/${post.slug}`, { method: 'HEAD', headers: plain })
    expect(bare.headers.get('content-length')).toBe(String((await full.arrayBuffer()).byteLength))
  })

  test('the same URL read with a token is answered privately (no-store) with the same bytes', async () => {
    const anonymous = await read(`${B}/posts/${post.slug}`)
    const withToken = await folio.call('GET', `${B}/posts/${post.slug}`, { token })
    expect(withToken.headers.get('cache-control')).toBe('private, no-store')
    expect(withToken.text).toBe(await anonymous.text())
    const viaHeader = await read(`${B}/posts/${post.slug}`, { headers: { 'x-api-token': token } })
    expect(viaHeader.headers.get('cache-control')).toBe('private, no-store')
  })

  test(`a render by another process (cli rebuild) is served within ${FOREIGN_RENDER_CHECK_MS} ms of its end`, async () => {
    const path = `${B}/posts/${post.slug}`
    const before = await read(path)
    expect(((await before.json()) as { data: { title: string } }).data.title).toBe(post.title)
    // A change the server is not told about: written straight into SQLite, then rendered by the CLI.
    const db = new Database(join(folio.dataDir, 'folio.db'))
    db.exec('PRAGMA busy_timeout = 5000')
    db.query('update posts set title = ?1 where id = ?2').run(`${post.title} (from the CLI)`, post.id)
    db.close()
    // No wait for the next whole second: the new bytes are longer, so the ETag (mtime and size) differs
    // whatever the mtime, and the new file arrives by rename, under a new inode the server notices.
    expect((await folio.cli('rebuild')).code).toBe(0)
    // The bound passes on the server's clock, moved rather than waited for.
    await folio.advanceClock(FOREIGN_RENDER_CHECK_MS)
    const after = await read(path)
    expect(((await after.json()) as { data: { title: string } }).data.title).toBe(`${post.title} (from the CLI)`)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
  })
})

describe('the access log', () => {
  test('every request has its line after a clean shutdown, the last ones included', async () => {
    const ids: string[] = []
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          read(i % 3 ? `${B}/posts/${post.slug}` : `${B}/posts?current=9`, { method: i % 5 ? 'GET' : 'HEAD' }),
        ),
      )
      for (const answer of answers) {
        ids.push(answer.headers.get('x-request-id')!)
        await answer.arrayBuffer()
      }
    }
    await folio.stop()
    const logged = new Set(
      folio
        .logs()
        .filter((e) => e.message === 'request')
        .map((e) => e.requestId),
    )
    expect(ids.filter((id) => !logged.has(id))).toEqual([])
    expect(folio.logs().at(-1)).toMatchObject({ message: 'stopped' })
  })
})
