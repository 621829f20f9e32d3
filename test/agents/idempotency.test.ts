import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { fingerprintOf } from '../../src/http/idempotency.ts'
import { png } from '../media/fixtures.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type ApiResponse, type Folio } from '../support/folio.ts'

let folio: Folio
let token: string
let categoryId: number
let authorId: number

beforeAll(async () => {
  folio = await startFolio({ TRUST_PROXY: '1' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  ;({ categoryId, authorId } = await seedTaxonomy(folio, token))
})
afterAll(() => folio.dispose())

const keyed = (key: string, extra: Record<string, string> = {}) => ({ 'idempotency-key': key, ...extra })
const save = (body: Record<string, unknown>, key: string, as = token) =>
  folio.call('POST', '/api/v1/blog/posts/save', { token: as, body, headers: keyed(key) })

function countRows(sql: string, ...params: (string | number)[]): number {
  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  try {
    return (db.query(sql).get(...params) as { n: number }).n
  } finally {
    db.close()
  }
}
const postsTitled = (title: string) => countRows('select count(*) as n from posts where title = ?', title)

const expectEnvelopeError = (res: ApiResponse, status: number, code: string) => {
  expect(res.status).toBe(status)
  expect(res.body.code).toBe(code)
}

describe('Idempotency-Key on POST writes', () => {
  test('20 parallel saves with one key create one post; every other answer is the first one replayed, or 409 while it runs', async () => {
    const body = { ...publishablePost(categoryId, authorId), status: 0 }
    const burst = await Promise.all(Array.from({ length: 20 }, () => save(body, 'burst-1')))
    expect(postsTitled(body.title as string)).toBe(1)
    const ran = burst.filter((res) => res.status === 200 && res.headers.get('idempotent-replayed') === null)
    expect(ran).toHaveLength(1)
    for (const res of burst) {
      if (res.status === 409) expectEnvelopeError(res, 409, 'IDEMPOTENCY_KEY_IN_USE')
      else expect(res.text).toBe(ran[0]!.text)
    }
    const retry = await save(body, 'burst-1')
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.text).toBe(ran[0]!.text)
    // The stored headers come back with the stored body.
    for (const name of ['content-type', 'cache-control']) expect(retry.headers.get(name)).toBe(ran[0]!.headers.get(name))
    expect(postsTitled(body.title as string)).toBe(1)
  })

  test('the same key with another body, method or path is 422 IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
    const body = { ...publishablePost(categoryId, authorId), status: 0 }
    const first = await save(body, 'reuse-1')
    expect(first.body.code).toBe('0000')
    const other = await save({ ...body, title: `${body.title} (changed)` }, 'reuse-1')
    expectEnvelopeError(other, 422, 'IDEMPOTENCY_KEY_REUSED')
    expect(postsTitled(`${body.title} (changed)`)).toBe(0)
    const elsewhere = await folio.call('POST', `/api/v1/blog/posts/${first.body.data.id}/publish`, { token, headers: keyed('reuse-1') })
    expectEnvelopeError(elsewhere, 422, 'IDEMPOTENCY_KEY_REUSED')
    expect((await folio.call('GET', `/api/v1/blog/posts/${first.body.data.slug}`)).status).toBe(400)
  })

  test('error answers are replayed too; keys belong to one caller', async () => {
    const bad = { ...publishablePost(categoryId, 987654) }
    const first = await save(bad, 'err-1')
    expect(first.status).toBe(400)
    const again = await save(bad, 'err-1')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.text).toBe(first.text)
    // Another token with the same key and body is another caller: its request runs.
    const other = await folio.token('blog:write')
    const body = { ...publishablePost(categoryId, authorId), status: 0 }
    expect((await save(body, 'shared-key')).body.code).toBe('0000')
    const theirs = await save(body, 'shared-key', other)
    expect(theirs.headers.get('idempotent-replayed')).toBeNull()
    expect(theirs.body.code).toBe('DUPLICATE_SLUG')
  })

  test('a bad key is a 400 naming the header; without a key every call runs, as before', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'naïve']) {
      const res = await folio.call('POST', '/api/v1/blog/categories/save', {
        token,
        body: { nameEn: 'Bad key', nameZh: '坏' },
        headers: { 'idempotency-key': key },
      })
      expectEnvelopeError(res, 400, 'VALIDATION_FAILED')
      expect(res.body.data.errors[0].field).toBe('Idempotency-Key')
    }
    expect(countRows("select count(*) as n from categories where name_en = 'Bad key'")).toBe(0)
    const body = { nameEn: `Keyless ${Date.now()}`, nameZh: '无键' }
    expect((await folio.call('POST', '/api/v1/blog/categories/save', { token, body })).body.code).toBe('0000')
    expect((await folio.call('POST', '/api/v1/blog/categories/save', { token, body })).body.code).toBe('0000')
    expect(countRows('select count(*) as n from categories where name_en = ?', body.nameEn)).toBe(2)
  })

  test('an upload retried with a new multipart boundary replays; other bytes under the key are refused', async () => {
    const upload = (bytes: Uint8Array<ArrayBuffer>, key: string) => {
      const form = new FormData()
      form.append('file', new File([bytes], 'cover.png', { type: 'image/png' }))
      return folio.call('POST', '/api/v1/blog/media/upload', { token, body: form, headers: keyed(key) })
    }
    const first = await upload(png([1, 2, 3]), 'upload-1')
    expect(first.body.code).toBe('0000')
    const retry = await upload(png([1, 2, 3]), 'upload-1')
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.text).toBe(first.text)
    expectEnvelopeError(await upload(png([9, 9, 9]), 'upload-1'), 422, 'IDEMPOTENCY_KEY_REUSED')
  })

  test('anonymous writes are keyed by address; claps keep their own dedupe across addresses', async () => {
    const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
    const clap = (ip: string) =>
      folio.call('POST', `/api/v1/blog/posts/${post.id}/reactions`, {
        body: { reactionKey: 'clap', clientKey: 'reader-1', count: 3 },
        headers: keyed('clap-1', { 'x-forwarded-for': ip }),
      })
    const first = await clap('203.0.113.1')
    expect(first.body.data.clapCount).toBe(3)
    expect((await clap('203.0.113.1')).headers.get('idempotent-replayed')).toBe('true')
    // From another address the shell sees a new caller, and the clap rule still counts it once.
    const moved = await clap('203.0.113.2')
    expect(moved.headers.get('idempotent-replayed')).toBeNull()
    expect(moved.body.data.clapCount).toBe(3)
  })

  test('keys survive a restart; a request left running by a killed server, or a key older than 24 hours, does not hold its key', async () => {
    const body = { ...publishablePost(categoryId, authorId), status: 0 }
    const first = await save(body, 'restart-1')
    const orphan = { ...publishablePost(categoryId, authorId), status: 0 }
    const expired = { ...publishablePost(categoryId, authorId), status: 0 }
    const fingerprint = (sent: unknown) =>
      fingerprintOf(new Request(`${folio.url}/api/v1/blog/posts/save`, { method: 'POST', body: JSON.stringify(sent) }))
    const db = new Database(join(folio.dataDir, 'folio.db'))
    // Beside the running server, whose writes may hold the lock a moment.
    db.exec('PRAGMA busy_timeout = 5000')
    const caller = (db.query("select caller from idempotency_keys where key = 'restart-1'").get() as { caller: string }).caller
    const insert = db.query(
      'insert into idempotency_keys (caller, key, fingerprint, owner, status, headers, body, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    // As a crashed process leaves it: claimed, never answered.
    insert.run(caller, 'orphan-1', await fingerprint(orphan), 'dead-process', null, null, null, Date.now())
    // Answered 25 hours ago.
    insert.run(caller, 'expired-1', await fingerprint(expired), 'old-process', 200, '[]', 'stale', Date.now() - 25 * 3600_000)
    db.close()
    await folio.stop(true)
    await folio.restart()
    const replayed = await save(body, 'restart-1')
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(replayed.text).toBe(first.text)
    for (const [sent, key] of [
      [orphan, 'orphan-1'],
      [expired, 'expired-1'],
    ] as const) {
      const res = await save(sent, key)
      expect(res.body.code).toBe('0000')
      expect(res.headers.get('idempotent-replayed')).toBeNull()
      expect(postsTitled(sent.title as string)).toBe(1)
    }
  })
})
