import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { MINIO_SETUP_TIMEOUT_MS, startMinio, type RunningMinio } from '../support/minio.ts'
import { avif, gif, jpeg, png, webp } from './fixtures.ts'

const IMAGES = [
  ['png', png, 'image/png'],
  ['jpeg', jpeg, 'image/jpeg'],
  ['gif', gif, 'image/gif'],
  ['webp', webp, 'image/webp'],
  ['avif', avif, 'image/avif'],
] as const

const form = (bytes: Uint8Array<ArrayBuffer>, name = 'upload.bin', type = 'application/octet-stream') => {
  const body = new FormData()
  body.append('file', new File([bytes], name, { type }))
  return body
}

/** The upload contract, run against each store behind the same HTTP API. */
function uploadContract(setup: () => Promise<{ folio: Folio; fetchUrl: (url: string) => string }>) {
  let folio: Folio
  let token: string
  let fetchUrl: (url: string) => string

  beforeAll(async () => {
    ;({ folio, fetchUrl } = await setup())
    token = await folio.token('blog:write', 'blog:publish')
  }, MINIO_SETUP_TIMEOUT_MS)
  afterAll(() => folio?.dispose())

  const upload = (body: FormData | string, t = token) => folio.call('POST', '/api/v1/blog/media/upload', { token: t, body })

  test.each(IMAGES)('a %s is stored by its bytes and served back as-is', async (_name, make, mime) => {
    const bytes = make()
    const res = await upload(form(bytes, 'misleading-name.txt', 'text/plain'))
    expect(res.body.code).toBe('0000')
    const url: string = res.body.data
    expect(url.startsWith(folio.env.MEDIA_URL ?? `${folio.env.SITE_URL}/media`)).toBe(true)
    expect(url).toMatch(/\/\d{4}\/\d{2}\/[0-9a-f]{32}\.(png|jpg|gif|webp|avif)$/)
    const served = await fetch(fetchUrl(url))
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe(mime)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
  })

  test('variants are stored beside the original in the same store, with their types (docs/media.md)', async () => {
    const url: string = (await upload(form(jpeg()))).body.data
    for (const [ext, mime] of [
      ['avif', 'image/avif'],
      ['webp', 'image/webp'],
      ['jpg', 'image/jpeg'],
    ] as const) {
      // The fixture is 8x8: one variant width, its own.
      const served = await fetch(fetchUrl(url.replace(/\.jpg$/, `-8.${ext}`)))
      expect([served.status, served.headers.get('content-type'), served.headers.get('cache-control')]).toEqual([
        200,
        mime,
        'public, max-age=31536000, immutable',
      ])
    }
  })

  test('the same bytes upload once: same URL', async () => {
    const bytes = png([1, 2, 3])
    const first = await upload(form(bytes, 'a.png'))
    const second = await upload(form(bytes, 'b.png'))
    expect(second.body.data).toBe(first.body.data)
  })

  test.each([
    [
      'an SVG',
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'MEDIA_UNSUPPORTED_TYPE',
    ],
    ['HTML named .png', new TextEncoder().encode('<!doctype html><html><body>hi</body></html>'), 'MEDIA_UNSUPPORTED_TYPE'],
    ['random bytes', new Uint8Array(256).map((_, i) => (i * 37) % 251), 'MEDIA_UNSUPPORTED_TYPE'],
    ['an empty file', new Uint8Array(), 'MEDIA_EMPTY'],
  ])('refuses %s with a 400 naming the file part', async (_name, bytes, code) => {
    const res = await upload(form(bytes, 'image.png', 'image/png'))
    expect(res.status).toBe(400)
    expect(res.body.code).toBe(code)
    expect(res.body.data.errors[0].field).toBe('file')
  })

  test('the refusal of a wrong type names the accepted types', async () => {
    const res = await upload(form(new TextEncoder().encode('<svg/>'), 'x.svg', 'image/svg+xml'))
    expect(res.body.message).toContain('WebP, AVIF, JPEG, PNG or GIF')
  })

  test('a file over MAX_UPLOAD_BYTES is refused', async () => {
    const big = new Uint8Array(Number(folio.env.MAX_UPLOAD_BYTES) + 1)
    big.set(png())
    const res = await upload(form(big, 'big.png'))
    expect(res.status).toBe(400)
    expect(res.body.code).toMatch(/MEDIA_TOO_LARGE|PAYLOAD_TOO_LARGE/)
  })

  test('a missing part, a non-multipart body, no token, no scope', async () => {
    const noFile = new FormData()
    noFile.append('other', 'x')
    expect((await upload(noFile)).body.data.errors[0].field).toBe('file')
    expect((await upload('{"file":"x"}')).status).toBe(400)
    expect((await upload(form(png()), '')).status).toBe(401)
    expect((await upload(form(png()), await folio.token('blog:read'))).status).toBe(403)
  })

  test('an uploaded cover passes the SEO media check; a missing object under MEDIA_URL fails it', async () => {
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    const cover = (await upload(form(png([9, 9, 9])))).body.data
    const check = (coverImage: string) =>
      folio.call('POST', '/api/v1/blog/posts/check', { token, body: { ...publishablePost(categoryId, authorId), coverImage } })
    const ok = (await check(cover)).body.data.items.find((i: { code: string }) => i.code === 'broken_media_url')
    expect(ok.passed).toBe(true)
    const missing = cover.replace(/[0-9a-f]{32}/, '0'.repeat(32))
    const bad = (await check(missing)).body.data.items.find((i: { code: string }) => i.code === 'broken_media_url')
    expect(bad.passed).toBe(false)
  })
}

describe('MEDIA_STORE=local', () => {
  uploadContract(async () => {
    const folio = await startFolio({ MAX_UPLOAD_BYTES: '65536', SITE_URL: 'https://blog.example.com' })
    // MEDIA_URL is https://blog.example.com/media; the API serves the same path itself.
    return { folio, fetchUrl: (url) => folio.url + new URL(url).pathname }
  })

  test('served media are never sniffed and cached for a year', async () => {
    const folio = await startFolio()
    try {
      const token = await folio.token('blog:write')
      const url = (await folio.call('POST', '/api/v1/blog/media/upload', { token, body: form(png([4, 5, 6])) })).body.data
      const res = await fetch(folio.url + new URL(url).pathname)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('cache-control')).toContain('max-age=31536000')
      // The store's content-hash ETag is kept, and a revalidation is a 304.
      const etag = res.headers.get('etag')!
      expect(etag).toMatch(/^"[0-9a-f]{32,64}"$/)
      expect((await fetch(folio.url + new URL(url).pathname, { headers: { 'if-none-match': etag } })).status).toBe(304)
      expect((await fetch(`${folio.url}/media/../data/folio.db`)).status).toBe(404)
      expect((await fetch(`${folio.url}/media/2026/01/missing.png`)).status).toBe(404)
    } finally {
      await folio.dispose()
    }
  })
})

describe('MEDIA_STORE=s3 on a real MinIO', () => {
  let minio: RunningMinio | undefined
  afterAll(() => minio?.stop())
  uploadContract(async () => {
    minio = await startMinio()
    const bucket = 'folio-http-test'
    const folio = await startFolio({
      MEDIA_STORE: 's3',
      S3_ENDPOINT: minio.endpoint,
      S3_ACCESS_KEY: minio.accessKey,
      S3_SECRET_KEY: minio.secretKey,
      S3_BUCKET: bucket,
      MEDIA_URL: `${minio.endpoint}/${bucket}`,
      // Media on a loopback host count as usable only when the site itself lives there.
      SITE_URL: 'http://127.0.0.1',
      MAX_UPLOAD_BYTES: '65536',
    })
    // The bucket itself serves the objects, anonymously, at MEDIA_URL.
    return { folio, fetchUrl: (url) => url }
  })
})
