import { describe, expect, test } from 'bun:test'
import { filesPrefix, locationIn, movedFile, parseMoved } from './layout.ts'

describe('redirect artifact layout', () => {
  test('an old URL and its target round-trip through the file name', () => {
    for (const [from, to, file] of [
      ['/2013/01/11/hello', '/en/blog/hello', '_redirects/2013/01/11/hello/@~en~blog~hello~'],
      ['/?p=123', '/en/blog/hello', '_redirects/@p=123~en~blog~hello~'],
      ['/tag/x', '/en/tag/x/', '_redirects/tag/x/@~en~tag~x~~'],
      ['/?page_id=2', '/cn/', '_redirects/@page_id=2~cn~~'],
    ] as const) {
      expect(movedFile(from, to)).toBe(file)
      expect(parseMoved(file)).toEqual({ kind: 'redirect', from, to })
      expect(file.startsWith(filesPrefix(from)!)).toBe(true)
    }
  })

  test('URLs no file can stand for, or Folio answers itself, are no artifact', () => {
    for (const from of [
      '/en/blog/x',
      '/api/v1/x',
      '/admin',
      '/_redirects/x',
      '/@me',
      '/a/.hidden',
      '/a//b',
      '/?p=a%20b',
      `/${'x'.repeat(201)}`,
    ])
      expect(movedFile(from, '/en/blog/x')).toBeNull()
    expect(movedFile('/old', '/en/blog/a~b')).toBeNull()
    expect(movedFile('/old', `/en/blog/${'x'.repeat(260)}`)).toBeNull()
    // Compressed copies, other queries' files and foreign names are none of this kind's.
    for (const file of ['_redirects/a/@~en~blog~x~.br', '_redirects/a/@', 'en/blog/x/@', '_redirects/en/x/@~en~blog~x~'])
      expect(parseMoved(file)).toBeNull()
  })

  test('the location is read from the one name its query owns, never a copy', () => {
    const names = ['@~en~blog~x~.br', '@~en~blog~x~', '@p=1~en~blog~y~', '@p=12~en~blog~z~.gz']
    expect(locationIn(names, '')).toBe('/en/blog/x')
    expect(locationIn(names, 'p=1')).toBe('/en/blog/y')
    expect(locationIn(names, 'p=12')).toBeNull()
  })
})
