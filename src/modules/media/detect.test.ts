import { describe, expect, test } from 'bun:test'
import { avif, gif, html, jpeg, noise, png, svg, webp } from '../../../test/media/fixtures.ts'
import { detectMediaType, mimeForExt } from './detect.ts'

describe('detectMediaType', () => {
  test.each([
    ['png', png(), 'image/png', 'png'],
    ['gif', gif(), 'image/gif', 'gif'],
    ['jpeg', jpeg(), 'image/jpeg', 'jpg'],
    ['webp', webp(), 'image/webp', 'webp'],
    ['avif', avif(), 'image/avif', 'avif'],
  ])('accepts %s from its bytes', async (_name, bytes, mime, ext) => {
    expect(await detectMediaType(bytes)).toEqual({ mime, ext } as never)
  })

  test.each([
    ['svg', svg()],
    ['html (whatever it was named)', html()],
    ['random bytes', noise(4096)],
    ['empty', new Uint8Array()],
    ['a PDF', new TextEncoder().encode('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')],
    ['a zip', new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])],
  ])('refuses %s', async (_name, bytes) => {
    expect(await detectMediaType(bytes)).toBeUndefined()
  })

  test('reads the bytes, not a prefix the client controls: HTML behind a BOM and spaces stays refused', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x20, 0x0a, ...html()])
    expect(await detectMediaType(bytes)).toBeUndefined()
  })
})

test('mimeForExt knows only the stored extensions', () => {
  expect(mimeForExt('jpg')).toBe('image/jpeg')
  expect(mimeForExt('avif')).toBe('image/avif')
  expect(mimeForExt('svg')).toBeUndefined()
  expect(mimeForExt('html')).toBeUndefined()
})
