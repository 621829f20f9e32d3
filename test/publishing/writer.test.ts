import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { COPY_EXTENSIONS } from '../../src/modules/publishing/copies-rule.ts'
import { filesPresent, removeArtifact, writeArtifact, writeCopies } from '../../src/modules/publishing/writer.ts'

const root = mkdtempSync(join(tmpdir(), 'folio-writer-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
// A page: it gets both copies (the API's JSON gets `.gz` alone: copies-rule.ts).
const path = 'en/blog/hello/@'
const both = COPY_EXTENSIONS
const file = join(root, path)
const bytes = (text: string) => Buffer.from(text)
/** An artifact written as a pass writes it: the main file, then its copies (on the copies thread there). */
const writeWhole = (content: Uint8Array, nowMs: number) => {
  writeArtifact(root, path, content, nowMs)
  expect(writeCopies(root, path, content)).toBe(true)
}

describe('artifact writer', () => {
  const now = Date.now()

  test('writes the file and its gzip and brotli copies, nothing else (no link for `?language=en`)', () => {
    writeWhole(bytes('{"a":1}'), now)
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}')
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe('{"a":1}')
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe('{"a":1}')
    expect(readdirSync(join(root, 'en/blog/hello')).sort()).toEqual(['@', '@.br', '@.gz'])
    expect(filesPresent(root, path, both)).toEqual({ main: true, copies: true })
  })

  test('changed bytes arrive by rename (a new inode) with a later mtime second, copies with the same second', () => {
    const old = statSync(file)
    writeWhole(bytes('{"a":2}'), now)
    const fresh = statSync(file)
    expect(fresh.ino).not.toBe(old.ino)
    expect(fresh.size).toBe(old.size)
    expect(Math.floor(fresh.mtimeMs / 1000)).toBeGreaterThan(Math.floor(old.mtimeMs / 1000))
    expect(statSync(`${file}.br`).mtimeMs).toBe(fresh.mtimeMs)
  })

  test('a version older than two seconds is replaced without setting a time: the write itself is later', () => {
    const past = Math.floor(Date.now() / 1000) - 10
    utimesSync(file, past, past)
    writeWhole(bytes('{"a":3}'), Date.now())
    expect(Math.floor(statSync(file).mtimeMs / 1000)).toBeGreaterThan(past)
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe('{"a":3}')
  })

  test('the old copies go before the new main file comes; writeCopies adds them later with its mtime', () => {
    writeArtifact(root, path, bytes('{"a":4}'), Date.now())
    expect(readFileSync(file, 'utf8')).toBe('{"a":4}')
    // No copy of an older version is left to disagree with the main file.
    expect(existsSync(`${file}.br`) || existsSync(`${file}.gz`)).toBe(false)
    expect(filesPresent(root, path, both)).toEqual({ main: true, copies: false })
    // Copies are only made of what the main file holds.
    expect(writeCopies(root, path, bytes('{"a":5}'))).toBe(false)
    expect(filesPresent(root, path, both)).toEqual({ main: true, copies: false })
    expect(writeCopies(root, path, bytes('{"a":4}'))).toBe(true)
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe('{"a":4}')
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe('{"a":4}')
    expect(Math.floor(statSync(`${file}.gz`).mtimeMs / 1000)).toBe(Math.floor(statSync(file).mtimeMs / 1000))
    expect(filesPresent(root, path, both)).toEqual({ main: true, copies: true })
  })

  test('the writer answers the main file mtime; copies given it carry it, and a vacant path is written whole', () => {
    const fresh = 'en/blog/fresh/@'
    const content = bytes('{"fresh":true}')
    const seconds = writeArtifact(root, fresh, content, Date.now(), true)
    expect(seconds).toBe(Math.floor(statSync(join(root, fresh)).mtimeMs / 1000))
    expect(writeCopies(root, fresh, content, seconds)).toBe(true)
    for (const ext of ['.br', '.gz']) expect(Math.floor(statSync(join(root, fresh + ext)).mtimeMs / 1000)).toBe(seconds)
    expect(brotliDecompressSync(readFileSync(join(root, `${fresh}.br`))).equals(content)).toBe(true)
    expect(gunzipSync(readFileSync(join(root, `${fresh}.gz`))).equals(content)).toBe(true)
    expect(readdirSync(join(root, 'en/blog/fresh')).sort()).toEqual(['@', '@.br', '@.gz'])
  })

  test("the API's JSON and a Markdown twin get their gzip copy alone; a .br an older release left goes with the next write", () => {
    for (const gzipOnly of ['api/v1/blog/posts/fresh/@', 'en/blog/fresh.md/@']) {
      const content = bytes(`{"for":"${gzipOnly}"}`)
      mkdirSync(join(root, gzipOnly, '..'), { recursive: true })
      writeFileSync(join(root, `${gzipOnly}.br`), 'an older release')
      const seconds = writeArtifact(root, gzipOnly, content, Date.now())
      expect(writeCopies(root, gzipOnly, content, seconds)).toBe(true)
      expect(readdirSync(join(root, gzipOnly, '..')).sort()).toEqual(['@', '@.gz'])
      expect(gunzipSync(readFileSync(join(root, `${gzipOnly}.gz`))).equals(content)).toBe(true)
      expect(filesPresent(root, gzipOnly, ['.gz'])).toEqual({ main: true, copies: true })
    }
  })

  test('copies left behind by a failed removal go too', () => {
    const lone = 'api/v1/blog/posts/lone/@'
    mkdirSync(join(root, 'api/v1/blog/posts/lone'), { recursive: true })
    writeFileSync(join(root, `${lone}.br`), 'stale')
    writeArtifact(root, lone, bytes('{"b":1}'), Date.now())
    expect(existsSync(join(root, `${lone}.br`))).toBe(false)
    expect(filesPresent(root, lone, ['.gz'])).toEqual({ main: true, copies: false })
  })

  test('a file of the old layout standing where a folder goes is replaced by the folder', () => {
    const old = join(root, 'api/v1/blog/sitemap.xml')
    mkdirSync(join(root, 'api/v1/blog'), { recursive: true })
    writeFileSync(old, '<old/>')
    writeArtifact(root, 'api/v1/blog/sitemap.xml/@', bytes('<new/>'), now)
    expect(readFileSync(join(old, '@'), 'utf8')).toBe('<new/>')
    // The old layout's stray copy goes; the folder now standing at the old file's name stays.
    writeFileSync(`${old}.gz`, 'old copy')
    expect(removeArtifact(root, 'api/v1/blog/sitemap.xml')).toBe('absent')
    expect(existsSync(`${old}.gz`)).toBe(false)
    expect(readFileSync(join(old, '@'), 'utf8')).toBe('<new/>')
  })

  test('removal takes the file and its copies; removing again is harmless', () => {
    expect(removeArtifact(root, path)).toBe('removed')
    // The post's folder went with its last file.
    expect(existsSync(join(root, 'api/v1/blog/posts/hello'))).toBe(false)
    expect(existsSync(join(root, 'api/v1/blog/posts'))).toBe(true)
    expect(removeArtifact(root, path)).toBe('absent')
    expect(filesPresent(root, path, both)).toEqual({ main: false, copies: false })
    // A .br beside the API's JSON (an older release's) goes with it too.
    const json = 'api/v1/blog/posts/fresh/@'
    writeFileSync(join(root, `${json}.br`), 'an older release')
    expect(removeArtifact(root, json)).toBe('removed')
    expect(existsSync(join(root, 'api/v1/blog/posts/fresh'))).toBe(false)
  })
})
