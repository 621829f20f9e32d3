import type { MediaMime } from './detect.ts'
import { loadSharp } from './sharp.ts'

/**
 * An upload's metadata taken out of the stored original, its pixels untouched (docs/media.md,
 * "Metadata"): one linear pass over the container's segments or chunks, never over decoded
 * pixels, so nothing is re-encoded and the colour profile stays.
 *
 * - JPEG: APP1 (Exif, XMP), APP3–APP13 and APP15 (maker notes, IPTC/Photoshop), COM, an APP2
 *   that is not the ICC profile (MPF) and whatever follows the end-of-image marker (the
 *   secondary images MPF pointed to, each with its own Exif) go; JFIF (APP0), the ICC profile
 *   (APP2 `ICC_PROFILE`), Adobe (APP14) and every coding segment stay.
 * - PNG: `eXIf`, `tEXt`, `zTXt`, `iTXt` and `tIME` chunks go; `iCCP`, `sRGB`, `gAMA`… stay.
 * - WebP: the `EXIF` and `XMP ` chunks go, and the VP8X flags that announced them.
 * - AVIF and GIF are stored as they come (their metadata lives in ISO BMFF item boxes or
 *   application extensions, which this pass does not rewrite).
 *
 * Orientation: browsers turn an image by its Exif orientation tag, so dropping the Exif block
 * whole would show a portrait photo on its side. An image whose orientation is not 1 gets back
 * a minimal Exif block holding that one tag (26 bytes), and nothing else: no GPS, no camera, no
 * date. Anything the pass cannot walk to the end (a length past the end of the file) is kept as
 * it came; the structure check has refused such files before this runs.
 */
export function stripMetadata(bytes: Uint8Array, mime: MediaMime, orientation: number): Uint8Array {
  const keep = orientation >= 2 && orientation <= 8 ? orientation : 1
  switch (mime) {
    case 'image/jpeg':
      return stripJpeg(bytes, keep) ?? bytes
    case 'image/png':
      return stripPng(bytes, keep) ?? bytes
    case 'image/webp':
      return stripWebp(bytes, keep) ?? bytes
    default:
      return bytes
  }
}

/** The original as it is stored: `stripMetadata` with the orientation sharp reads from its header (1 when it reads none). */
export async function storedOriginal(bytes: Uint8Array, mime: MediaMime): Promise<Uint8Array> {
  if (mime !== 'image/jpeg' && mime !== 'image/png' && mime !== 'image/webp') return bytes
  const sharp = await loadSharp()
  const orientation = await sharp(bytes)
    .metadata()
    .then((meta) => meta.orientation ?? 1)
    .catch(() => 1)
  return stripMetadata(bytes, mime, orientation)
}

/** A TIFF structure (big-endian) whose one IFD holds the Orientation tag (0x0112, SHORT). */
function orientationTiff(orientation: number): Uint8Array {
  // prettier-ignore
  return new Uint8Array([
    0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, // "MM", 42, first IFD at 8
    0, 1, // one entry
    0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, // Orientation, SHORT, 1 value
    0, 0, 0, 0, // no next IFD
  ])
}

const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0, 0] // "Exif\0\0"
const ICC_PROFILE = 'ICC_PROFILE\0'

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n))
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]

/** Pieces of the output, joined once at the end. */
class Parts {
  private readonly parts: Uint8Array[] = []
  size = 0
  push(part: Uint8Array | number[]): void {
    const bytes = part instanceof Uint8Array ? part : new Uint8Array(part)
    this.parts.push(bytes)
    this.size += bytes.length
  }
  join(): Uint8Array {
    const out = new Uint8Array(this.size)
    let at = 0
    for (const part of this.parts) {
      out.set(part, at)
      at += part.length
    }
    return out
  }
}

/** Whether a JPEG marker segment with this marker byte and payload carries metadata to drop. */
function jpegDrops(marker: number, b: Uint8Array, payload: number, length: number): boolean {
  if (marker === 0xfe) return true // COM
  if (marker === 0xe2) return length < ICC_PROFILE.length || ascii(b, payload, ICC_PROFILE.length) !== ICC_PROFILE
  return marker >= 0xe1 && marker <= 0xef && marker !== 0xe2 && marker !== 0xee // APP1, APP3–APP13, APP15
}

function stripJpeg(b: Uint8Array, orientation: number): Uint8Array | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null
  const out = new Parts()
  out.push(b.subarray(0, 2))
  let at = 2
  let exifPlaced = orientation === 1
  const placeExif = () => {
    if (exifPlaced) return
    exifPlaced = true
    const tiff = orientationTiff(orientation)
    out.push([0xff, 0xe1, ...be32(2 + EXIF_HEADER.length + tiff.length).slice(2), ...EXIF_HEADER])
    out.push(tiff)
  }
  while (at + 1 < b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1]!
    // Fill bytes before a marker, and markers without a length (TEM, RSTn).
    if (marker === 0xff) {
      at++
      continue
    }
    if (marker === 0xd9) {
      placeExif()
      out.push([0xff, 0xd9])
      return out.join() // anything after the end of the image (MPF's other images) stays behind
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      out.push(b.subarray(at, at + 2))
      at += 2
      continue
    }
    if (at + 4 > b.length) return null
    const length = u16be(b, at + 2)
    const end = at + 2 + length
    if (length < 2 || end > b.length) return null
    // The orientation goes right after JFIF (APP0), or first when there is none.
    if (marker !== 0xe0) placeExif()
    if (!jpegDrops(marker, b, at + 4, length - 2)) out.push(b.subarray(at, end))
    at = end
    if (marker !== 0xda) continue
    // Start of scan: entropy-coded data up to the next marker (FF not followed by 00 or RSTn).
    const from = at
    while (at + 1 < b.length && !(b[at] === 0xff && b[at + 1] !== 0 && !(b[at + 1]! >= 0xd0 && b[at + 1]! <= 0xd7))) at++
    out.push(b.subarray(from, at))
  }
  return null
}

const PNG_DROPS = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME'])

function pngChunk(type: string, data: Uint8Array): number[] {
  const typed = new Uint8Array([...type].map((c) => c.charCodeAt(0)).concat([...data]))
  return [...be32(data.length), ...typed, ...be32(Bun.hash.crc32(typed) >>> 0)]
}

function stripPng(b: Uint8Array, orientation: number): Uint8Array | null {
  const out = new Parts()
  out.push(b.subarray(0, 8))
  let at = 8
  while (at + 12 <= b.length) {
    const end = at + 12 + u32be(b, at)
    if (end > b.length) return null
    const type = ascii(b, at + 4, 4)
    // The orientation (PNG's eXIf chunk) before the image data, as the chunk must be.
    if (type === 'IDAT' && orientation !== 1) {
      out.push(pngChunk('eXIf', orientationTiff(orientation)))
      orientation = 1
    }
    if (!PNG_DROPS.has(type)) out.push(b.subarray(at, end))
    at = end
    if (type === 'IEND') return out.join()
  }
  return null
}

/** VP8X flags: EXIF (bit 3) and XMP (bit 2). */
const VP8X_EXIF = 0x08
const VP8X_XMP = 0x04

function stripWebp(b: Uint8Array, orientation: number): Uint8Array | null {
  if (b.length < 12 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return null
  const end = Math.min(b.length, 8 + u32le(b, 4))
  const out = new Parts()
  let at = 12
  let extended = false
  while (at + 8 <= end) {
    const fourcc = ascii(b, at, 4)
    const next = at + 8 + u32le(b, at + 4) + (u32le(b, at + 4) % 2)
    if (next > b.length) return null
    if (fourcc === 'VP8X' && next - at >= 9) {
      extended = true
      const chunk = b.slice(at, next)
      chunk[8] = (chunk[8]! & ~(VP8X_EXIF | VP8X_XMP)) | (orientation !== 1 ? VP8X_EXIF : 0)
      out.push(chunk)
    } else if (fourcc !== 'EXIF' && fourcc !== 'XMP ') out.push(b.subarray(at, next))
    at = next
  }
  // EXIF is the last chunk but XMP (the container's order); only an extended file can carry it.
  if (orientation !== 1 && extended) {
    const tiff = orientationTiff(orientation)
    out.push([0x45, 0x58, 0x49, 0x46, ...le32(tiff.length)]) // "EXIF"
    out.push(tiff)
  }
  const body = out.join()
  const file = new Uint8Array(12 + body.length)
  file.set(b.subarray(0, 12))
  file.set(le32(4 + body.length), 4)
  file.set(body, 12)
  return file
}
