import { describe, expect, test } from 'bun:test'
import { contentHash, isValidMediaKey, keyFor, keyFromMediaUrl, mediaUrlFor } from './keys.ts'

const bytes = new TextEncoder().encode('hello')
const HELLO_SHA256 = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'

describe('keys', () => {
  test('contentHash is the sha256 hex of the bytes', () => {
    expect(contentHash(bytes)).toBe(HELLO_SHA256)
  })

  test('keyFor is YYYY/MM/<32 hex>.<ext> in UTC', () => {
    // 23:30 on 31 January in UTC-5 is already February in UTC.
    const now = new Date('2026-01-31T23:30:00-05:00')
    expect(keyFor(HELLO_SHA256, 'png', now)).toBe(`2026/02/${HELLO_SHA256.slice(0, 32)}.png`)
    expect(keyFor(HELLO_SHA256, 'jpg', new Date('2025-12-01T00:00:00Z'))).toBe(`2025/12/${HELLO_SHA256.slice(0, 32)}.jpg`)
  })

  test('keyFor refuses what is not a hash or an extension', () => {
    expect(() => keyFor('../../etc', 'png', new Date())).toThrow()
    expect(() => keyFor(HELLO_SHA256, 'p/ng', new Date())).toThrow()
  })

  test.each([
    ['2026/02/abc.png', true],
    ['a', true],
    ['../x.png', false],
    ['2026/../x.png', false],
    ['2026/./x.png', false],
    ['/etc/passwd', false],
    ['2026\\x.png', false],
    ['2026/x.png\0.jpg', false],
    ['2026//x.png', false],
    ['2026/x.png/', false],
    ['2026/.hidden.tmp', false],
    ['2026/%2e%2e/x.png', false],
    ['', false],
  ])('isValidMediaKey(%p) is %p', (key, valid) => {
    expect(isValidMediaKey(key)).toBe(valid)
  })

  test('isValidMediaKey refuses keys over 512 characters', () => {
    expect(isValidMediaKey('a'.repeat(512))).toBe(true)
    expect(isValidMediaKey('a'.repeat(513))).toBe(false)
  })

  test('media URLs round-trip to keys and ignore foreign URLs', () => {
    const key = `2026/02/${HELLO_SHA256.slice(0, 32)}.png`
    const url = mediaUrlFor('https://example.com/media/', key)
    expect(url).toBe(`https://example.com/media/${key}`)
    expect(keyFromMediaUrl('https://example.com/media', url)).toBe(key)
    expect(keyFromMediaUrl('https://example.com/media', `${url}?v=1`)).toBe(key)
    expect(keyFromMediaUrl('https://example.com/media', 'https://cdn.other.com/x.png')).toBeUndefined()
    expect(keyFromMediaUrl('https://example.com/media', 'https://example.com/media/../secret')).toBeUndefined()
  })
})
