import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalMediaStore, type LocalMediaStore } from '../../src/modules/media/local-store.ts'
import { MediaRejected } from '../../src/modules/media/errors.ts'
import type { MediaIndex, MediaRecord } from '../../src/modules/media/store.ts'
import { readWithin, uploadMedia, type UploadDeps } from '../../src/modules/media/upload.ts'
import { avif, html, jpeg, png, svg, webp } from './fixtures.ts'

let dataDir: string
let store: LocalMediaStore

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-upload-'))
  store = createLocalMediaStore(dataDir)
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

/** The index the service keeps in SQLite, kept in a Map here. */
class MapIndex implements MediaIndex {
  readonly rows = new Map<string, MediaRecord>()
  keyForHash(hash: string) {
    return this.rows.get(hash)?.key
  }
  record(entry: MediaRecord) {
    if (!this.rows.has(entry.hash)) this.rows.set(entry.hash, entry)
  }
}

const MARCH = new Date('2026-03-15T10:00:00Z')
const APRIL = new Date('2026-04-02T10:00:00Z')
const deps = (extra: Partial<UploadDeps> = {}): UploadDeps => ({
  store,
  mediaUrl: 'https://blog.example/media/',
  maxBytes: 1024,
  now: () => MARCH,
  ...extra,
})

async function rejection(promise: Promise<unknown>): Promise<MediaRejected> {
  try {
    await promise
  } catch (error) {
    if (error instanceof MediaRejected) return error
    throw error
  }
  throw new Error('expected a MediaRejected')
}

describe('uploadMedia', () => {
  test('stores a File under YYYY/MM/<hash>.<ext> and returns MEDIA_URL/<key>', async () => {
    const bytes = webp()
    // Name and declared type lie; the bytes decide.
    const file = new File([bytes], 'photo.png', { type: 'image/png' })
    const uploaded = await uploadMedia(deps(), file)
    expect(uploaded.key).toMatch(/^2026\/03\/[0-9a-f]{32}\.webp$/)
    expect(uploaded.url).toBe(`https://blog.example/media/${uploaded.key}`)
    expect(uploaded.contentType).toBe('image/webp')
    expect(uploaded.size).toBe(bytes.byteLength)
    expect(uploaded.deduplicated).toBe(false)
    expect(await store.exists(uploaded.key)).toBe(true)
    const served = await store.serve(uploaded.key)
    expect(served.headers.get('content-type')).toBe('image/webp')
  })

  test.each([
    ['jpeg', jpeg(), 'jpg'],
    ['avif', avif(), 'avif'],
  ])('accepts %s as raw bytes', async (_name, bytes, ext) => {
    const uploaded = await uploadMedia(deps(), bytes)
    expect(uploaded.key.endsWith(`.${ext}`)).toBe(true)
  })

  test.each([
    ['an SVG', svg()],
    ['HTML named .png', html()],
  ])('refuses %s and names the accepted types', async (_name, bytes) => {
    const error = await rejection(uploadMedia(deps(), new File([bytes], 'x.png', { type: 'image/png' })))
    expect(error.code).toBe('MEDIA_UNSUPPORTED_TYPE')
    expect(error.field).toBe('file')
    expect(error.message).toContain('WebP, AVIF, JPEG, PNG or GIF')
    expect(error.details.acceptedTypes).toContain('image/avif')
  })

  test('refuses an empty file', async () => {
    expect((await rejection(uploadMedia(deps(), new File([], 'x.png')))).code).toBe('MEDIA_EMPTY')
    expect((await rejection(uploadMedia(deps(), new Uint8Array()))).code).toBe('MEDIA_EMPTY')
    const emptyStream = new ReadableStream<Uint8Array>({ start: (c) => c.close() })
    expect(await rejection(uploadMedia(deps(), { stream: emptyStream }))).toMatchObject({ code: 'MEDIA_EMPTY' })
  })

  test('refuses an oversized File from its size, before reading it', async () => {
    const big = new File([new Uint8Array(1025)], 'big.png')
    let read = false
    const spying = Object.assign(big, {
      arrayBuffer: () => {
        read = true
        return Blob.prototype.arrayBuffer.call(big)
      },
    })
    const error = await rejection(uploadMedia(deps(), spying))
    expect(error.code).toBe('MEDIA_TOO_LARGE')
    expect(error.message).toContain('1 KiB')
    expect(error.data).toMatchObject({ field: 'file', maxBytes: 1024, size: 1025 })
    expect(read).toBe(false)
  })

  test('a stream with a too large declared size is refused unread and cancelled', async () => {
    let pulled = 0
    let cancelled = false
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: (c) => {
          pulled++
          c.enqueue(new Uint8Array(100))
        },
        cancel: () => {
          cancelled = true
        },
      },
      { highWaterMark: 0 },
    )
    const error = await rejection(uploadMedia(deps(), { stream, size: 5000 }))
    expect(error.code).toBe('MEDIA_TOO_LARGE')
    expect(pulled).toBe(0)
    expect(cancelled).toBe(true)
  })

  test('a stream that lies about its size is cut just past the limit', async () => {
    let pulled = 0
    let cancelled = false
    // An endless body: reading it whole would never finish.
    const stream = new ReadableStream<Uint8Array>(
      {
        pull: (c) => {
          pulled++
          c.enqueue(new Uint8Array(100).fill(1))
        },
        cancel: () => {
          cancelled = true
        },
      },
      { highWaterMark: 0 },
    )
    const error = await rejection(readWithin({ stream, size: 10 }, 1024))
    expect(error.code).toBe('MEDIA_TOO_LARGE')
    expect(pulled).toBeLessThanOrEqual(12)
    expect(cancelled).toBe(true)
  })

  test('a stream within the limit is read whole', async () => {
    const bytes = png([4, 5, 6])
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        c.enqueue(bytes.slice(0, 10))
        c.enqueue(bytes.slice(10))
        c.close()
      },
    })
    const uploaded = await uploadMedia(deps(), { stream })
    expect(uploaded.contentType).toBe('image/png')
    expect(await Bun.file(join(store.root, uploaded.key)).bytes()).toEqual(bytes)
  })

  test('the same bytes in the same month land once, even without an index', async () => {
    const bytes = png([7, 7, 7])
    const first = await uploadMedia(deps(), bytes)
    // A write lands by a temp file and a rename (a new inode), so the same inode and mtime mean it was not written again.
    const { ino, mtimeMs } = await Bun.file(join(store.root, first.key)).stat()
    const second = await uploadMedia(deps(), bytes)
    expect(second.key).toBe(first.key)
    expect(second.deduplicated).toBe(true)
    expect(await Bun.file(join(store.root, first.key)).stat()).toMatchObject({ ino, mtimeMs })
  })

  test('with an index, the same bytes in a later month keep the first key', async () => {
    const index = new MapIndex()
    const bytes = png([8, 8, 8])
    const march = await uploadMedia(deps({ index }), bytes)
    const april = await uploadMedia(deps({ index, now: () => APRIL }), bytes)
    expect(march.key.startsWith('2026/03/')).toBe(true)
    expect(april).toMatchObject({ key: march.key, url: march.url, deduplicated: true })
    expect(index.rows.get(march.hash)).toMatchObject({ key: march.key, contentType: 'image/png', size: bytes.byteLength })
    expect(await readdir(join(store.root, '2026'))).not.toContain('04')
  })

  test('an index entry whose object is gone is written back under the recorded key', async () => {
    const index = new MapIndex()
    const bytes = png([10, 10, 10])
    const first = await uploadMedia(deps({ index }), bytes)
    await rm(join(store.root, first.key))
    const again = await uploadMedia(deps({ index, now: () => APRIL }), bytes)
    expect(again).toMatchObject({ key: first.key, deduplicated: false })
    expect(await store.exists(first.key)).toBe(true)
  })
})
