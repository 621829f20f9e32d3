import { describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { stripMetadata, storedOriginal } from './strip.ts'

/**
 * Metadata out of stored originals (strip.ts): real files made by sharp with GPS, XMP, an ICC
 * profile and an orientation; the pixels come out bit for bit, the profile and the orientation
 * stay, the GPS goes; hostile containers are kept as they came, in linear time.
 */
const GPS = { IFD0: { Make: 'Folio test camera' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100' } }
const XMP = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>'

const tagged = (format: 'jpeg' | 'png' | 'webp', orientation: number) =>
  sharp({ create: { width: 40, height: 24, channels: 3, background: { r: 30, g: 110, b: 190 } } })
    .withExif(GPS)
    .withXmp(XMP)
    .withIccProfile('p3')
    .withMetadata({ orientation })
    [format]()
    .toBuffer()

const hasGps = (bytes: Uint8Array) => {
  const b = Buffer.from(bytes)
  return b.includes('Folio test camera') || b.includes(Buffer.from([0x88, 0x25])) || b.includes(Buffer.from([0x25, 0x88]))
}
const pixels = async (bytes: Uint8Array) => (await sharp(bytes).raw().toBuffer()).toString('base64')

describe('stripMetadata', () => {
  for (const format of ['jpeg', 'png', 'webp'] as const)
    for (const orientation of [1, 6])
      test(`${format}, orientation ${orientation}: GPS, camera and XMP go; pixels, ICC profile and orientation stay`, async () => {
        const original = new Uint8Array(await tagged(format, orientation))
        const before = await sharp(original).metadata()
        expect([hasGps(original), !!before.xmp, !!before.icc, before.orientation ?? 1]).toEqual([true, true, true, orientation])

        const stored = await storedOriginal(original, `image/${format}`)
        const after = await sharp(stored).metadata()
        expect(hasGps(stored)).toBe(false)
        expect([after.xmp, after.icc?.equals(before.icc!), after.orientation ?? 1]).toEqual([undefined, true, orientation])
        expect([after.width, after.height, after.format]).toEqual([before.width, before.height, before.format])
        expect(await pixels(stored)).toBe(await pixels(original))
        // Idempotent: a second pass changes nothing.
        expect(Buffer.from(stripMetadata(stored, `image/${format}`, orientation)).equals(Buffer.from(stored))).toBe(true)
      })

  test('a JPEG loses what follows its end-of-image marker (MPF images with their own Exif)', async () => {
    const photo = new Uint8Array(await tagged('jpeg', 1))
    const trailer = new Uint8Array([...photo, ...photo])
    const stored = stripMetadata(trailer, 'image/jpeg', 1)
    expect(hasGps(stored)).toBe(false)
    expect(stored.length).toBeLessThan(photo.length)
  })

  test('hostile containers: truncated, lying lengths, huge runs of fill bytes — kept as they came, quickly', () => {
    const jpegLie = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 1, 2, 3])
    expect(stripMetadata(jpegLie, 'image/jpeg', 1)).toBe(jpegLie)
    const pngLie = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x7f, 0xff, 0xff, 0xff, 0x74, 0x45, 0x58, 0x74, 0, 0, 0, 0,
    ])
    expect(stripMetadata(pngLie, 'image/png', 1)).toBe(pngLie)
    const webpLie = new Uint8Array([...Buffer.from('RIFF'), 0xff, 0xff, 0xff, 0x7f, ...Buffer.from('WEBPEXIF'), 0xff, 0xff, 0xff, 0x7f])
    expect(stripMetadata(webpLie, 'image/webp', 1)).toBe(webpLie)

    // 4 MiB of the worst cases for each walk (fill bytes, empty chunks, one endless scan): a
    // walk that went back over its input would not finish within the test's timeout.
    const big = 4 * 1024 * 1024
    const fills = new Uint8Array(big).fill(0xff)
    fills.set([0xff, 0xd8])
    const scan = new Uint8Array(big)
    scan.set([0xff, 0xd8, 0xff, 0xda, 0, 2])
    const chunks = new Uint8Array(big)
    chunks.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    for (let at = 8; at + 12 <= big; at += 12) chunks.set([0, 0, 0, 0, 0x74, 0x45, 0x58, 0x74], at)
    for (const [bytes, mime] of [
      [fills, 'image/jpeg'],
      [scan, 'image/jpeg'],
      [chunks, 'image/png'],
    ] as const)
      expect(stripMetadata(bytes, mime, 1)).toBe(bytes)
  })
})
