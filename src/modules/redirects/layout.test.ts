import { describe, expect, test } from 'bun:test'
import { indexFile, locationIn, lookupOf, movedName, parseIndex, shardOf } from './layout.ts'

describe('redirect file layout', () => {
  test('an old URL goes in the shard of its parent and last two characters, named after its target', () => {
    for (const [from, to, shard, name] of [
      ['/2013/01/11/hello', '/en/blog/hello', '2013/01/11/@lo', 'hello@~en~blog~hello~'],
      ['/hello', '/en/blog/hello', '@lo', 'hello@~en~blog~hello~'],
      ['/?p=123', '/en/blog/hello', '@23', '@p=123~en~blog~hello~'],
      ['/?page_id=2', '/cn/', '@=2', '@page_id=2~cn~~'],
      ['/tag/x', '/en/tag/x/', 'tag/@x', 'x@~en~tag~x~~'],
      ['/index.php?p=7', '/en/blog/a', '@=7', 'index.php@p=7~en~blog~a~'],
    ] as const) {
      expect([shardOf(from), movedName(from, to)]).toEqual([shard, name])
      expect(parseIndex(indexFile(shard))).toEqual({ kind: 'redirect', shard })
      const at = lookupOf(from)!
      expect(at.folder).toBe(`_moved/${shard}`)
      expect(locationIn(['zzz@~en~blog~other~', name], at.stem)).toBe(to)
    }
  })

  test('URLs no file can stand for, or Folio answers itself, have no shard', () => {
    for (const from of [
      '/',
      '/en/blog/x',
      '/api/v1/x',
      '/admin',
      '/_redirects/x',
      '/_moved/x',
      '/@me',
      '/a@b',
      '/a~b',
      '/a/.hidden',
      '/a//b',
      '/?p=a%20b',
      `/${'x'.repeat(201)}`,
    ])
      expect([from, shardOf(from)]).toEqual([from, null])
    expect(movedName('/old', '/en/blog/a~b')).toBeNull()
    expect(movedName('/old', `/en/blog/${'x'.repeat(260)}`)).toBeNull()
    for (const file of ['_redirects/a/@abc', '_redirects/a/b', '_redirects/en/@x', 'en/blog/x/@', '_redirects/a/@x/y'])
      expect(parseIndex(file)).toBeNull()
  })

  test('the location is read from the one name its URL owns', () => {
    const names = ['hello@~en~blog~x~', '@p=1~en~blog~y~', 'hello-2@~en~blog~z~']
    expect(locationIn(names, 'hello@~')).toBe('/en/blog/x')
    expect(locationIn(names, '@p=1~')).toBe('/en/blog/y')
    expect(locationIn(names, '@p=12~')).toBeNull()
  })
})
