import { deflateSync } from 'node:zlib'

/**
 * Tiny but real images, built here so the tests need no binary files.
 * PNG, GIF and JPEG are assembled byte by byte; WebP and AVIF need a real encoder, so they
 * are 1x1 images made once with libwebp/libavif (through Pillow) and kept as base64.
 * Every one of them decodes with Pillow (checked when they were written).
 */

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0))

function pngChunk(type: string, data: Uint8Array): number[] {
  const typed = new Uint8Array([...ascii(type), ...data])
  return [...u32(data.length), ...typed, ...u32(Bun.hash.crc32(typed) >>> 0)]
}

/** A 1x1 RGB PNG of the given colour. */
export function png(rgb: [number, number, number] = [255, 0, 0]): Uint8Array<ArrayBuffer> {
  const ihdr = new Uint8Array([...u32(1), ...u32(1), 8, 2, 0, 0, 0])
  const idat = new Uint8Array(deflateSync(new Uint8Array([0, ...rgb])))
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...pngChunk('IHDR', ihdr),
    ...pngChunk('IDAT', idat),
    ...pngChunk('IEND', new Uint8Array()),
  ])
}

/** A valid PNG carrying `extra` bytes in an ancillary chunk before IEND (any size, still one whole image). */
export function paddedPng(extra: number): Uint8Array<ArrayBuffer> {
  const base = png()
  const iend = base.length - 12
  const chunk = new Uint8Array(12 + extra)
  const view = new DataView(chunk.buffer)
  view.setUint32(0, extra)
  chunk.set([0x7a, 0x7a, 0x54, 0x78], 4) // "zzTx": ancillary, private, safe to copy
  view.setUint32(8 + extra, Bun.hash.crc32(chunk.subarray(4, 8 + extra)) >>> 0)
  const out = new Uint8Array(base.length + chunk.length)
  out.set(base.subarray(0, iend))
  out.set(chunk, iend)
  out.set(base.subarray(iend), iend + chunk.length)
  return out
}

/** The classic 1x1 transparent GIF89a. */
export function gif(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...ascii('GIF89a'),
    1,
    0,
    1,
    0,
    0x80,
    0,
    0, // screen 1x1, 2-colour global table
    0xff,
    0xff,
    0xff,
    0,
    0,
    0, // the table
    0x21,
    0xf9,
    4,
    1,
    0,
    0,
    0,
    0, // graphic control: colour 0 transparent
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // image descriptor 1x1
    2,
    2,
    0x44,
    1,
    0, // LZW data
    0x3b,
  ])
}

/**
 * A baseline 8x8 grey JPEG: one block whose coefficients are all zero, coded with two
 * one-symbol Huffman tables (DC category 0 and AC end-of-block, each the 1-bit code '0').
 */
export function jpeg(): Uint8Array<ArrayBuffer> {
  const segment = (marker: number, body: number[]) => [0xff, marker, ...[(body.length + 2) >> 8, (body.length + 2) & 0xff], ...body]
  const oneSymbolTable = (classAndId: number) => [classAndId, 1, ...new Array(15).fill(0), 0]
  return new Uint8Array([
    0xff,
    0xd8,
    ...segment(0xdb, [0, ...new Array(64).fill(1)]), // quantisation table 0, all ones
    ...segment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // 8-bit, 8x8, one component
    ...segment(0xc4, oneSymbolTable(0x00)), // DC table 0
    ...segment(0xc4, oneSymbolTable(0x10)), // AC table 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // scan
    0b00111111, // '0' DC diff 0, '0' EOB, padded with ones
    0xff,
    0xd9,
  ])
}

const fromBase64 = (b64: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(b64, 'base64'))

/** 1x1 lossless WebP. */
export const webp = (): Uint8Array<ArrayBuffer> => fromBase64(WEBP_1X1)
/** 1x1 AVIF. */
export const avif = (): Uint8Array<ArrayBuffer> => fromBase64(AVIF_1X1)

export const svg = (): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>')

export const html = (): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>')

/** Deterministic noise (xorshift), so a run can never happen to start with a magic number. */
export function noise(length: number, seed = 0x2545f491): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length)
  let x = seed
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

const WEBP_1X1 = 'UklGRhwAAABXRUJQVlA4TBAAAAAvAAAAAAdQwOh//wMR0f8A'
const AVIF_1X1 =
  'AAAAIGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZk1BMUIAAADrbWV0YQAAAAAAAAAhaGRscgAAAAAAAAAAcGljdAAAAAAAAAAAAAAAAAAAAAAOcGl0bQAAAAAAAQAAAB5pbG9jAAAAAEQAAAEAAQAAAAEAAAETAAAAKAAAAChpaW5mAAAAAAABAAAAGmluZmUCAAAAAAEAAGF2MDFDb2xvcgAAAABqaXBycAAAAEtpcGNvAAAAFGlzcGUAAAAAAAAAAQAAAAEAAAAQcGl4aQAAAAADCAgIAAAADGF2MUOBAAwAAAAAE2NvbHJuY2x4AAEADQAGgAAAABdpcG1hAAAAAAAAAAEAAQQBAoMEAAAAMG1kYXQSAAoIGAAGiAhoNCAyGhlHh4Yhh5555oAAAJBAyRxhZQao5pAOCoaA'
