import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { indexFile, locationIn, lookupOf, movedName, parseIndex, shardOf } from './layout.ts'

/** Old URLs as a request spells them (path, query) and as they are keyed, where they moved, their shard and file name. */
const CASES = [
  ['/2013/01/11/hello/', '', '/2013/01/11/hello', '/en/blog/hello', '2013/01/11/@lo', 'hello@~en~blog~hello~'],
  ['/hello', '', '/hello', '/en/blog/hello', '@lo', 'hello@~en~blog~hello~'],
  ['/a', '', '/a', '/cn/', '@a', 'a@~cn~~'],
  ['/', 'p=123', '/?p=123', '/en/blog/hello', '@23', '@p=123~en~blog~hello~'],
  ['/', 'page_id=2', '/?page_id=2', '/cn/', '@=2', '@page_id=2~cn~~'],
  ['/tag/x/', '', '/tag/x', '/en/tag/x/', 'tag/@x', 'x@~en~tag~x~~'],
  ['/index.php', 'p=7', '/index.php?p=7', '/en/blog/a', '@=7', 'index.php@p=7~en~blog~a~'],
  ['/blog/index.php/', 'p=7', '/blog/index.php?p=7', '/en/blog/y', 'blog/@=7', 'index.php@p=7~en~blog~y~'],
  ['/about.html', '', '/about.html', '/en/about', '@ml', 'about.html@~en~about~'],
] as const

describe('redirect file layout', () => {
  test('an old URL goes in the shard of its parent and last two characters, named after its target', () => {
    for (const [, , from, to, shard, name] of CASES) {
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

  test("the Caddyfile's maps find the same file and target, in Caddy's spelling of the URL", () => {
    // Run as Caddy runs a map: the first matching pattern, `${n}` its groups; else the default.
    const caddyfile = readFileSync(join(import.meta.dir, '../../../Caddyfile'), 'utf8')
    const mapOf = (input: string, output: string) => {
      const block = new RegExp(`map ${input.replace(/[{}?.]/g, '\\$&')} \\{${output}\\} \\{\\n([\\s\\S]*?)\\n\\t\\}`).exec(caddyfile)![1]!
      const entries = [...block.matchAll(/^\t\t~(\S+) "([^"]*)"$/gm)].map(([, pattern, out]) => [new RegExp(pattern!), out!] as const)
      const fallback = /^\t\tdefault "([^"]*)"$/m.exec(block)?.[1] ?? null
      return (value: string) => {
        const hit = entries.find(([pattern]) => pattern.test(value))
        return hit ? value.replace(hit[0], hit[1].replace(/\$\{(\d)\}/g, '$$$1')) : fallback
      }
    }
    const stem = mapOf('{path}?{query}', 'moved_stem')
    const target = mapOf('{http.matchers.file.relative}', 'moved_to')
    for (const [path, query, from, to] of CASES) {
      const at = lookupOf(from)!
      expect([path, query, stem(`${path}?${query}`)]).toEqual([path, query, `/${at.folder}/${at.stem.slice(0, -1)}`])
      expect(target(`/${at.folder}/${movedName(from, to)}`)).toBe(to)
    }
    // No file for the root itself. A long path and query: one anchored pass (Caddy's RE2 is linear;
    // a backtracking blow-up here would not end within the test's time), the same place as Bun's.
    expect(stem('/?')).toBe('/_moved/-')
    const [segments, query] = ['a/'.repeat(20_000), 'p='.repeat(20_000)]
    const at = lookupOf(`/${segments.slice(0, -1)}?${query}`)!
    expect(stem(`/${segments}?${query}`)).toBe(`/${at.folder}/${at.stem.slice(0, -1)}`)
  })
})
