import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalMediaStore, type LocalMediaStore } from '../../src/modules/media/local-store.ts'
import { contentHash, keyFor } from '../../src/modules/media/keys.ts'
import { InvalidMediaKey } from '../../src/modules/media/errors.ts'
import { gif, png } from './fixtures.ts'

let dataDir: string
let store: LocalMediaStore

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-media-'))
  store = createLocalMediaStore(dataDir)
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

const keyOf = (bytes: Uint8Array, ext: string) => keyFor(contentHash(bytes), ext, new Date('2026-03-05T12:00:00Z'))

describe('local media store', () => {
  test('put, exists and serve round-trip under DATA_DIR/media/<key>', async () => {
    const bytes = png()
    const key = keyOf(bytes, 'png')
    expect(await store.exists(key)).toBe(false)
    await store.put(key, bytes, 'image/png')
    expect(await store.exists(key)).toBe(true)
    expect(new Uint8Array(await Bun.file(join(dataDir, 'media', key)).arrayBuffer())).toEqual(bytes)

    const response = await store.serve(key, new Request('http://x/media/' + key))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('etag')).toBe(`"${contentHash(bytes).slice(0, 32)}"`)
    expect(response.headers.get('content-length')).toBe(String(bytes.byteLength))
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes)
  })

  test('content type follows the stored extension', async () => {
    const bytes = gif()
    const key = keyOf(bytes, 'gif')
    await store.put(key, bytes, 'image/gif')
    const response = await store.serve(key)
    expect(response.headers.get('content-type')).toBe('image/gif')
  })

  test('a matching If-None-Match answers 304 without a body; HEAD has headers and no body', async () => {
    const bytes = png([0, 255, 0])
    const key = keyOf(bytes, 'png')
    await store.put(key, bytes, 'image/png')
    const first = await store.serve(key)
    const etag = first.headers.get('etag')!
    const again = await store.serve(key, new Request('http://x/', { headers: { 'If-None-Match': `W/${etag}, "other"` } }))
    expect(again.status).toBe(304)
    expect(again.headers.get('etag')).toBe(etag)
    expect(await again.text()).toBe('')

    const head = await store.serve(key, new Request('http://x/', { method: 'HEAD' }))
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('image/png')
    expect(await head.text()).toBe('')
  })

  test('missing keys and extensions we never store answer 404', async () => {
    expect((await store.serve('2026/03/0123456789abcdef0123456789abcdef.png')).status).toBe(404)
    await Bun.write(join(dataDir, 'media', '2026/03/page.html'), '<script>alert(1)</script>')
    const html = await store.serve('2026/03/page.html')
    expect(html.status).toBe(404)
    expect(html.headers.get('x-content-type-options')).toBe('nosniff')
  })

  test.each(['../secret.png', '2026/../../secret.png', '/etc/passwd', '2026\\..\\secret.png', '2026/x.png\0', '2026/.tmp.png', ''])(
    'refuses the key %p everywhere',
    async (key) => {
      await Bun.write(join(dataDir, 'secret.png'), png())
      await expect(store.put(key, png(), 'image/png')).rejects.toBeInstanceOf(InvalidMediaKey)
      expect(await store.exists(key)).toBe(false)
      expect((await store.serve(key)).status).toBe(404)
    },
  )

  test('a rewrite replaces the file whole and leaves no temp file behind', async () => {
    const key = '2026/03/rewrite.png'
    const before = png([1, 2, 3])
    const after = new Uint8Array(1024 * 1024).fill(7)
    await store.put(key, before, 'image/png')

    // Readers racing a big rewrite see the old bytes or the new ones, never a mix or a short file.
    let written = false
    const writing = store.put(key, after, 'image/png').then(() => (written = true))
    let reads = 0
    while (!written || reads === 0) {
      const seen = await Bun.file(join(dataDir, 'media', key)).bytes()
      reads++
      if (seen.byteLength === before.byteLength) expect(seen).toEqual(before)
      else expect(seen.byteLength === after.byteLength && seen.every((b) => b === 7)).toBe(true)
    }
    await writing
    expect(await Bun.file(join(dataDir, 'media', key)).bytes()).toEqual(after)
    expect((await readdir(join(dataDir, 'media', '2026/03'))).filter((name) => name.startsWith('.'))).toEqual([])
  })

  test('a failed write leaves the old file intact and no temp file', async () => {
    const key = '2026/04/blocked.png'
    const old = png([9, 9, 9])
    await store.put(key, old, 'image/png')
    // A directory where the file should go makes the rename fail after the temp file is written.
    const dirKey = '2026/04/adir.png'
    await Bun.write(join(dataDir, 'media', dirKey, 'inside'), 'x')
    await expect(store.put(dirKey, png(), 'image/png')).rejects.toThrow()
    expect(await Bun.file(join(dataDir, 'media', key)).bytes()).toEqual(old)
    expect((await readdir(join(dataDir, 'media', '2026/04'))).filter((name) => name.startsWith('.'))).toEqual([])
    expect(await store.exists(dirKey)).toBe(false)
  })
})
