import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from 'bun:sqlite'
import sharp from 'sharp'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../support/chromium.ts'
import { freePort } from '../support/caddy.ts'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'
import { startStack, type Stack } from '../publishing/stack.ts'

/**
 * Responsive variants end to end (docs/media.md, "Variants"): an upload with EXIF orientation and
 * GPS gets upright, metadata-free AVIF/WebP/JPEG variants at 480/960 and its own 1000 px (never upscaled) beside it; a post's
 * cover and body image become a <picture> through Caddy; Chromium at 375 px takes the 480 AVIF;
 * `cli media variants --missing` makes them again for an upload that has none, and the post
 * published while it had none is re-rendered through the change recorded with them.
 */

/** A 560x1000 JPEG whose EXIF says "turn 90° clockwise" (so it shows 1000x560) and carries a GPS position. */
const photo = () =>
  sharp({ create: { width: 560, height: 1000, channels: 3, background: { r: 30, g: 110, b: 190 } } })
    .withExif({ IFD0: { Make: 'Folio test camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' } })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer()

/** Whether an EXIF block holds the GPS IFD pointer (tag 0x8825), in either byte order. */
const hasGpsPointer = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])))

let s: Stack
let browser: Browser
let url: string
let key: string
let postPath: string
const mediaFiles = () =>
  readdirSync(join(s.folio.dataDir, 'media'), { recursive: true })
    .map(String)
    .filter((f) => /\.\w+$/.test(f))

beforeAll(async () => {
  const port = await freePort()
  const site = `http://127.0.0.1:${port}`
  s = await startStack({ SITE_URL: site, MEDIA_URL: `${site}/media` }, port)
  browser = await launchChromium()
  const bytes = await photo()
  expect(hasGpsPointer((await sharp(bytes).metadata()).exif)).toBe(true)
  const body = new FormData()
  body.append('file', new File([bytes], 'photo.jpg', { type: 'image/jpeg' }))
  url = (await s.folio.call('POST', '/api/v1/blog/media/upload', { token: s.token, body })).body.data
  key = url.slice(`${site}/media/`.length)
  const external = '<p><img src="https://images.example.org/chart.png" alt="A chart from elsewhere"></p>'
  const post = publishablePost(s.categoryId, s.authorId, { coverImage: url, coverAlt: 'A blue field' })
  post.contentHtml = `${post.contentHtml}<figure><img src="${url}" alt="The same blue field"></figure>${external}`
  const published = await publishNewPost(s.folio, s.token, post)
  postPath = new URL(published.url ?? `${site}/en/blog/${published.slug}`).pathname
  await s.folio.rendered()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await s?.dispose()
})

describe('media variants', () => {
  test('an upload gets upright, metadata-free variants in AVIF, WebP and JPEG, never upscaled (a 1000 px image gets 480, 960, 1000)', async () => {
    const stem = key.slice(0, -'.jpg'.length)
    const expected = [480, 960, 1000].flatMap((w) => ['avif', 'webp', 'jpg'].map((ext) => `${stem}-${w}.${ext}`))
    expect(mediaFiles().sort()).toEqual([key, ...expected].sort())
    for (const file of expected) {
      const meta = await sharp(join(s.folio.dataDir, 'media', file)).metadata()
      const width = Number(/-(\d+)\./.exec(file)![1])
      expect({ file, format: meta.format, width: meta.width, height: meta.height }).toEqual({
        file,
        format: file.endsWith('.jpg') ? 'jpeg' : file.endsWith('.webp') ? 'webp' : 'heif',
        width,
        height: Math.round((width * 560) / 1000),
      })
      // No EXIF (so no GPS), no orientation to apply, no ICC profile: sRGB by default.
      expect([meta.exif, meta.orientation, meta.icc, hasGpsPointer(meta.exif)]).toEqual([undefined, undefined, undefined, false])
    }
  })

  test('Caddy serves variants with their type, immutable, and the original at the URL the upload returned, without its GPS', async () => {
    const original = await s.viaCaddy(`/media/${key}`)
    const meta = await sharp(new Uint8Array(await original.arrayBuffer())).metadata()
    // Stored without the camera's Exif (strip.ts): only the orientation tag is left, so it still shows upright.
    expect([original.status, hasGpsPointer(meta.exif), meta.orientation, meta.width, meta.height]).toEqual([200, false, 6, 560, 1000])
    for (const [ext, type] of [
      ['avif', 'image/avif'],
      ['webp', 'image/webp'],
    ] as const) {
      const answer = await s.viaCaddy(`/media/${key.replace(/\.jpg$/, `-480.${ext}`)}`)
      expect([answer.status, answer.headers.get('content-type'), answer.headers.get('cache-control')]).toEqual([
        200,
        type,
        'public, max-age=31536000, immutable',
      ])
      expect((await sharp(new Uint8Array(await answer.arrayBuffer())).metadata()).width).toBe(480)
    }
  })

  test('the post page shows its own images as <picture>, others as they are, and Chromium at 375 px takes the 480 AVIF', async () => {
    const html = await (await s.viaCaddy(postPath)).text()
    const base = url.replace(/\.jpg$/, '')
    const set = (ext: string) => [480, 960, 1000].map((w) => `${base}-${w}.${ext} ${w}w`).join(', ')
    const cover = /<figure class="cover">([\s\S]*?)<\/figure>/.exec(html)![1]!
    expect(cover).toContain(`<picture><source type="image/avif" srcset="${set('avif')}" sizes="`)
    expect(cover).toContain(`<source type="image/webp" srcset="${set('webp')}"`)
    expect(cover).toMatch(
      new RegExp(
        `<img src="${base}-1000\\.jpg" srcset="${set('jpg')}" sizes="[^"]+" alt="A blue field" width="1000" height="560" decoding="async" fetchpriority="high"/?></picture>`,
      ),
    )
    // The body's copy: lazy, the same sets; the original (with its EXIF) is linked nowhere.
    expect(html).toMatch(
      new RegExp(
        `<img src="${base}-1000\\.jpg" alt="The same blue field" loading="lazy" decoding="async" width="1000" height="560" srcset="${set('jpg')}" sizes="[^"]+"`,
      ),
    )
    expect(html).not.toContain(`"${url}"`.slice(0, -1))
    expect(html).toContain(`<meta property="og:image" content="${base}-1000.jpg"/>`)
    expect(html).toContain('<img src="https://images.example.org/chart.png" alt="A chart from elsewhere" loading="lazy" decoding="async">')

    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 1 })
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort())
    const page = await context.newPage()
    await page.goto(`${s.caddy.url}${postPath}`, { waitUntil: 'load' })
    const chosen = await page
      .locator('.cover img')
      .evaluate((img: HTMLImageElement) => img.decode().then(() => [img.currentSrc, img.naturalWidth > 0]))
    expect(chosen).toEqual([`${base}-480.avif`, true])
    await context.close()
  })

  test('a post published while its image had no variants shows them once `cli media variants --missing` makes them, once', async () => {
    const stem = key.slice(0, -'.jpg'.length)
    for (const file of mediaFiles()) if (file !== key) rmSync(join(s.folio.dataDir, 'media', file))
    const db = new Database(join(s.folio.dataDir, 'folio.db'))
    // Beside the running server, whose writes may hold the lock a moment.
    db.exec('PRAGMA busy_timeout = 5000')
    db.run('UPDATE media SET variants = NULL, width = NULL, height = NULL, largest_variant_size = NULL')
    db.close()
    // The page as a publish made while the variants were still to come: the plain upload.
    expect((await s.folio.cli('rebuild', '--force')).code).toBe(0)
    await s.folio.rendered()
    const plain = await (await s.viaCaddy(postPath)).text()
    expect([plain.includes(`<img src="${url}"`), plain.includes('<picture>')]).toEqual([true, false])

    const first = await s.folio.cli('media', 'variants', '--missing')
    expect([first.code, first.stdout.trim(), first.stderr]).toEqual([
      0,
      'media variants: 1 made, 0 already had them, 0 need none, 0 failed',
      'media variants: 1/1 made\n',
    ])
    expect(mediaFiles()).toContain(`${stem}-480.avif`)
    expect(mediaFiles()).toHaveLength(10)
    // No rebuild: the post change committed with the media row is what the server renders.
    await s.folio.rendered()
    const html = await (await s.viaCaddy(postPath)).text()
    expect(html).toContain(`<source type="image/avif" srcset="${stem.replace(/^/, url.slice(0, url.length - key.length))}-480.avif 480w`)
    expect(html).not.toContain(`<img src="${url}"`)

    const again = await s.folio.cli('media', 'variants', '--missing')
    expect([again.code, again.stdout.trim()]).toEqual([0, 'media variants: 0 made, 0 already had them, 0 need none, 0 failed'])
  })
})
