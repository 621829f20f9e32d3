import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from 'minio'
import { createS3MediaStore, type S3MediaStore } from '../../src/modules/media/s3-store.ts'
import { uploadMedia } from '../../src/modules/media/upload.ts'
import { MINIO_SETUP_TIMEOUT_MS, startMinio, type RunningMinio } from '../support/minio.ts'
import { gif, png } from './fixtures.ts'

let minio: RunningMinio
let admin: Client
let store: S3MediaStore
const bucket = 'folio-media-test'

beforeAll(async () => {
  minio = await startMinio()
  admin = new Client({
    endPoint: '127.0.0.1',
    port: minio.port,
    useSSL: false,
    accessKey: minio.accessKey,
    secretKey: minio.secretKey,
  })
}, MINIO_SETUP_TIMEOUT_MS)

afterAll(async () => {
  await minio?.stop()
})

const options = () => ({
  endpoint: minio.endpoint,
  accessKey: minio.accessKey,
  secretKey: minio.secretKey,
  bucket,
})

describe('S3 media store on a real MinIO', () => {
  test('creates the missing bucket, and starting again on it is fine', async () => {
    expect(await admin.bucketExists(bucket)).toBe(false)
    store = await createS3MediaStore(options())
    expect(await admin.bucketExists(bucket)).toBe(true)
    await createS3MediaStore(options())
  })

  test('put and exists', async () => {
    const bytes = png()
    const key = '2026/03/put-and-exists.png'
    expect(await store.exists(key)).toBe(false)
    await store.put(key, bytes, 'image/png')
    expect(await store.exists(key)).toBe(true)
    expect(await store.exists('2026/03/missing.png')).toBe(false)
    expect(await store.exists('../escape.png')).toBe(false)
    await expect(store.put('../escape.png', bytes, 'image/png')).rejects.toThrow()
  })

  test('an uploaded object is readable anonymously with its bytes and content type', async () => {
    const bytes = gif()
    const uploaded = await uploadMedia(
      { store, mediaUrl: `${minio.endpoint}/${bucket}`, maxBytes: 1 << 20, now: () => new Date('2026-03-01T00:00:00Z') },
      new File([bytes], 'cat.png', { type: 'image/png' }),
    )
    expect(uploaded.url).toBe(store.objectUrl(uploaded.key))

    const response = await fetch(uploaded.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/gif')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes)
  })

  test('anonymous clients can neither list the bucket nor write to it', async () => {
    const list = await fetch(`${minio.endpoint}/${bucket}/`)
    expect(list.status).toBe(403)
    await list.arrayBuffer()
    const write = await fetch(`${minio.endpoint}/${bucket}/2026/03/anon.png`, { method: 'PUT', body: png() })
    expect(write.status).toBe(403)
    await write.arrayBuffer()
    expect(await store.exists('2026/03/anon.png')).toBe(false)
  })

  test('the same bytes uploaded twice make one object under one key', async () => {
    const bytes = png([12, 34, 56])
    const deps = { store, mediaUrl: `${minio.endpoint}/${bucket}`, maxBytes: 1 << 20, now: () => new Date('2026-05-20T00:00:00Z') }
    const first = await uploadMedia(deps, bytes)
    const second = await uploadMedia(deps, bytes)
    expect(second).toMatchObject({ key: first.key, url: first.url, deduplicated: true })
    expect(first.deduplicated).toBe(false)

    const names: string[] = []
    for await (const item of admin.listObjectsV2(bucket, '2026/05/', true)) {
      if (item.name) names.push(item.name)
    }
    expect(names).toEqual([first.key])
  })
})
