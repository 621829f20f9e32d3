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
