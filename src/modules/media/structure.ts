import type { MediaMime } from './detect.ts'

/**
 * An accepted image's header, decoded, and its container walked to the end (docs/media.md,
 * "What an upload must be"): the dimensions the header declares (image-size, which reads every
 * accepted format), and whether the file ends exactly where its own structure says. A tiny file
 * declaring 50,000 x 50,000 pixels makes every reader's browser pay to decode it; bytes after the
 * end marker are junk stored and served for nothing. Each walk is one pass over the chunk or box
 * headers (a few per file), never over the pixel data.
 */

export type StructureFault =
  { kind: 'undecodable' } | { kind: 'length'; message: string } | { kind: 'pixels'; width: number; height: number }

const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0
const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n))

/** PNG: chunks (length, type, data, CRC) from byte 8 to IEND, which must be the last byte. */
function pngEnd(b: Uint8Array): number | null {
  let at = 8
  while (at + 12 <= b.length) {
    const next = at + 12 + u32be(b, at)
    if (ascii(b, at + 4, 4) === 'IEND') return next
    at = next
  }
  return null
}

/** ISO BMFF (AVIF): top-level boxes (size, type), a size of 1 taking a 64-bit size, 0 running to the end. */
function boxesEnd(b: Uint8Array): number | null {
  let at = 0
  while (at + 8 <= b.length) {
    const size = u32be(b, at)
    if (size === 0) return b.length
    const length = size === 1 && at + 16 <= b.length ? u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12) : size
    if (length < 8) return null
    at += length
  }
  return at
}

/** Where the file's own structure says it ends, by format. */
const END: Record<MediaMime, (b: Uint8Array) => number | null> = {
  'image/png': pngEnd,
  // JPEG ends with EOI (FF D9) and GIF with its trailer (3B): the last bytes must be those.
  'image/jpeg': (b) => (b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9 ? b.length : null),
  'image/gif': (b) => (b[b.length - 1] === 0x3b ? b.length : null),
  // RIFF: the size field counts the bytes after it, padded to an even length.
  'image/webp': (b) => 8 + u32le(b, 4) + (u32le(b, 4) % 2),
  'image/avif': boxesEnd,
}

const END_NAMES: Record<MediaMime, string> = {
  'image/png': 'PNG chunks up to IEND',
  'image/jpeg': 'JPEG end-of-image marker (FF D9)',
  'image/gif': 'GIF trailer (3B)',
  'image/webp': 'RIFF size',
  'image/avif': 'AVIF (ISO BMFF) boxes',
}

/** Null when the image is whole and within `maxPixels`, else what is wrong with it. */
export function structureFault(bytes: Uint8Array, mime: MediaMime, maxPixels: number): StructureFault | null {
  let size: { width?: number; height?: number }
  try {
    // image-size (26 modules) loads with the first upload, not at every start (docs/benchmarks.md, "CLI start").
    size = (import.meta.require('image-size') as typeof import('image-size')).imageSize(bytes)
  } catch {
    return { kind: 'undecodable' }
  }
  const { width, height } = size
  if (!width || !height) return { kind: 'undecodable' }
  const end = END[mime](bytes)
  if (end !== bytes.length)
    return {
      kind: 'length',
      message: `the ${END_NAMES[mime]} ${end === null ? 'are not complete' : `end at byte ${end}`}, the file has ${bytes.length} bytes`,
    }
  if (width * height > maxPixels) return { kind: 'pixels', width, height }
  return null
}
