import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'

let folio: Folio
beforeAll(async () => {
  folio = await startFolio()
})
afterAll(() => folio.dispose())

const category = { nameEn: 'Auth checks' }
const saveCategory = (headers: Record<string, string>, body: unknown = category) =>
  folio.call('POST', '/api/v1/blog/categories/save', { headers, body })

describe('tokens', () => {
  test('the CLI prints the plain token once and lists it masked', async () => {
    const created = await folio.cli('token', 'create', '--name', 'ci bot', '--scopes', 'blog:read,blog:write')
    expect(created.code).toBe(0)
    const plain = created.stdout.trim()
    expect(plain).toMatch(/^folio_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$/)
    // Captured (not a terminal): the token alone, nothing on stderr (the README's walkthrough relies on it).
    expect(created.stderr).toBe('')
    const listed = await folio.cli('token', 'list')
    expect(listed.stdout).toContain('ci bot')
    expect(listed.stdout).not.toContain(plain)
    expect(listed.stdout).toContain(`${plain.slice(0, 18)}_********`)
  })

  test('only a hash of the secret is stored', async () => {
    const plain = await folio.token('blog:read')
    const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
    const rows = db.query('select * from api_tokens').all() as Record<string, unknown>[]
    db.close()
    // folio_<12-char id>_<43-char secret>: the secret itself may hold '_', so cut by position.
    const secret = plain.slice('folio_'.length + 13)
    expect(secret).toHaveLength(43)
    expect(JSON.stringify(rows)).not.toContain(secret)
  })

  test('accepted from Authorization: Bearer and X-API-Token', async () => {
    const token = await folio.token('blog:write')
    expect((await saveCategory({ authorization: `Bearer ${token}` }, { nameEn: 'Bearer one' })).body.code).toBe('0000')
    expect((await saveCategory({ 'x-api-token': token }, { nameEn: 'Header one' })).body.code).toBe('0000')
  })

  test('missing, malformed, unknown and revoked tokens are 401', async () => {
    const token = await folio.token('blog:write')
    const forged = token.slice(0, -4) + 'AAAA'
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nonsense' },
      { 'x-api-token': forged },
      { authorization: 'Basic abc' },
    ]
    for (const headers of attempts) {
      const res = await saveCategory(headers)
      expect(res.status).toBe(401)
      expect(res.body.code).toBe('UNAUTHORIZED')
    }
    const list = await folio.cli('token', 'list')
    const id = list.stdout
      .split('\n')
      .find((line) => line.includes(token.slice(0, 19)))!
      .split('\t')[0]!
    expect((await folio.cli('token', 'revoke', id)).code).toBe(0)
    expect((await saveCategory({ 'x-api-token': token })).status).toBe(401)
    expect((await folio.cli('token', 'revoke', id)).code).not.toBe(0)
  })

  test('a token without the scope is 403, and authorization outranks input errors', async () => {
    const reader = await folio.token('blog:read')
    const res = await saveCategory({ 'x-api-token': reader })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('FORBIDDEN')
    // Even a malformed body gets the 401/403 first: the caller learns nothing about validation.
    expect((await saveCategory({ 'x-api-token': reader }, '{oops')).status).toBe(403)
    expect((await saveCategory({}, '{oops')).status).toBe(401)
    expect((await folio.call('GET', '/api/v1/blog/posts/operate?id=abc&status=9')).status).toBe(401)
  })

  test('saving with status=1 needs blog:publish on top of blog:write', async () => {
    const writer = await folio.token('blog:write')
    const res = await folio.call('POST', '/api/v1/blog/posts/save', {
      token: writer,
      body: { language: 'en', title: 'Needs publish', contentHtml: '<p>x</p>', categoryId: 1, status: 1 },
    })
    expect(res.status).toBe(403)
    expect(res.body.data.requiredScope).toBe('blog:publish')
  })

  test('bad CLI input exits non-zero with one clear line', async () => {
    for (const args of [
      ['token', 'create', '--name', 'x', '--scopes', 'blog:everything'],
      ['token', 'create', '--scopes', 'blog:read'],
      ['token', 'revoke', 'abc'],
      ['token', 'frobnicate'],
      ['token', 'create', '--name', 'x', '--scopes', 'blog:read', '--bogus', '1'],
    ]) {
      const out = await folio.cli(...args)
      expect(out.code).not.toBe(0)
      expect(out.stderr.trim().length).toBeGreaterThan(0)
      expect(out.stderr).not.toContain('    at ')
    }
  })
})

describe('the call log', () => {
  test('every call with a token is logged with scope, path, status, message, IP and duration', async () => {
    const token = await folio.token('blog:read')
    await saveCategory({ 'x-api-token': token }) // 403
    await folio.call('GET', '/api/v1/blog/tags', { token }) // anonymous endpoint, token used for logging
    const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
    const rows = db.query('select * from api_calls order by id desc limit 2').all() as Record<string, unknown>[]
    db.close()
    expect(rows[0]).toMatchObject({ method: 'GET', path: '/api/v1/blog/tags', status: 200, code: '0000', ip: '127.0.0.1' })
    expect(rows[1]).toMatchObject({ path: '/api/v1/blog/categories/save', status: 403, required_scope: 'blog:write', code: 'FORBIDDEN' })
    expect(typeof rows[1]!.duration_ms).toBe('number')
    expect(String(rows[1]!.message)).toContain('blog:write')
  })
})
