import { describe, expect, test } from 'bun:test'
import { migrateDatabase, openDatabase } from '../db/client.ts'
import { fingerprintOf, idempotent } from './idempotency.ts'
import { createIdempotencyStore } from './idempotency-store.ts'

function setup() {
  const db = openDatabase(':memory:')
  migrateDatabase(db)
  let now = Date.parse('2026-03-01T00:00:00Z')
  const store = createIdempotencyStore(db, () => new Date(now))
  let runs = 0
  const call = (init: RequestInit & { path?: string; key?: string }, status = 200) =>
    idempotent(
      new Request(`http://localhost${init.path ?? '/api/v1/blog/tags/save'}`, {
        method: 'POST',
        ...init,
        headers: init.key ? { 'idempotency-key': init.key } : {},
      }),
      'token:1',
      store,
      async () => new Response(JSON.stringify({ run: ++runs }), { status, headers: { 'content-type': 'application/json' } }),
    )
  return { call, runs: () => runs, later: (ms: number) => void (now += ms) }
}

describe('idempotent()', () => {
  test('replays the first answer exactly; runs again after 24 hours', async () => {
    const { call, runs, later } = setup()
    const first = await call({ key: 'k', body: '{"a":1}' })
    const again = await call({ key: 'k', body: '{"a":1}' })
    expect(await again.text()).toBe(await first.text())
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.headers.get('content-type')).toBe('application/json')
    expect(runs()).toBe(1)
    later(24 * 3600_000 + 1)
    expect((await call({ key: 'k', body: '{"a":1}' })).headers.get('idempotent-replayed')).toBeNull()
    expect(runs()).toBe(2)
  })

  test('while the first request runs, the key is in use (409); then its answer is replayed', async () => {
    const db = openDatabase(':memory:')
    migrateDatabase(db)
    const store = createIdempotencyStore(db, () => new Date())
    let finish = () => {}
    const running = new Promise<void>((resolve) => (finish = resolve))
    const request = () =>
      new Request('http://localhost/api/v1/blog/posts/save', { method: 'POST', body: '{}', headers: { 'idempotency-key': 'slow' } })
    // The first request's handler running is the signal that it holds the key (no wait on the clock).
    let begun = () => {}
    const started = new Promise<void>((resolve) => (begun = resolve))
    const first = idempotent(request(), 'token:1', store, async () => {
      begun()
      await running
      return new Response('{"code":"0000"}')
    })
    await started
    const second = await idempotent(request(), 'token:1', store, async () => new Response('ran twice'))
    expect(second.status).toBe(409)
    expect(((await second.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_USE')
    finish()
    expect(await (await first).text()).toBe('{"code":"0000"}')
    expect(await (await idempotent(request(), 'token:1', store, async () => new Response('ran twice'))).text()).toBe('{"code":"0000"}')
  })

  test('server errors free the key; requests without a key, or outside /api/, are not touched', async () => {
    const { call, runs } = setup()
    expect((await call({ key: 'k', body: 'x' }, 503)).status).toBe(503)
    expect((await call({ key: 'k', body: 'x' })).headers.get('idempotent-replayed')).toBeNull()
    await call({ body: 'x' })
    await call({ body: 'x' })
    await call({ key: 'm', body: 'x', path: '/mcp' })
    await call({ key: 'm', body: 'x', path: '/mcp' })
    expect(runs()).toBe(6)
  })

  test('the fingerprint ignores the multipart boundary, nothing else', async () => {
    const multipart = (boundary: string, content: string) =>
      new Request('http://localhost/api/v1/blog/media/upload', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: `--${boundary}\r\ncontent-disposition: form-data; name="file"\r\n\r\n${content}\r\n--${boundary}--\r\n`,
      })
    expect(await fingerprintOf(multipart('aaa111', 'bytes'))).toBe(await fingerprintOf(multipart('bbb222', 'bytes')))
    expect(await fingerprintOf(multipart('aaa111', 'bytes'))).not.toBe(await fingerprintOf(multipart('aaa111', 'other')))
    const json = (path: string) => new Request(`http://localhost${path}`, { method: 'POST', body: '{}' })
    expect(await fingerprintOf(json('/api/a'))).not.toBe(await fingerprintOf(json('/api/b')))
  })
})
