import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { writeArtifact } from '../../src/modules/publishing/writer.ts'

const root = mkdtempSync(join(tmpdir(), 'folio-writer-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const path = 'api/v1/blog/posts/hello/en.json'
const file = join(root, path)

describe('artifact writer', () => {
  const now = Date.now()

  test('writes the file and its gzip and brotli copies', () => {
    expect(writeArtifact(root, path, '{"a":1}', now)).toBe('written')
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}')
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe('{"a":1}')
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe('{"a":1}')
    expect(readdirSync(join(root, 'api/v1/blog/posts/hello')).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  test('unchanged bytes leave every file untouched, so the ETag stays', () => {
    const before = [file, `${file}.gz`, `${file}.br`].map((f) => statSync(f))
    expect(writeArtifact(root, path, '{"a":1}', now + 5_000)).toBe('unchanged')
    const after = [file, `${file}.gz`, `${file}.br`].map((f) => statSync(f))
    for (const [i, s] of after.entries()) {
      expect(s.ino).toBe(before[i]!.ino)
      expect(s.mtimeMs).toBe(before[i]!.mtimeMs)
    }
  })

  test('changed bytes arrive by rename (a new inode) with a later mtime second, even within the same second', () => {
    const old = statSync(file)
    expect(writeArtifact(root, path, '{"a":2}', now)).toBe('written')
    const fresh = statSync(file)
    expect(fresh.ino).not.toBe(old.ino)
    expect(fresh.size).toBe(old.size)
    expect(Math.floor(fresh.mtimeMs / 1000)).toBeGreaterThan(Math.floor(old.mtimeMs / 1000))
  })

  test('a precompressed copy left behind by a crash is repaired even when the main file is current', () => {
    writeFileSync(`${file}.gz`, 'not gzip at all')
    utimesSync(`${file}.gz`, 1, 1)
    expect(writeArtifact(root, path, '{"a":2}', now)).toBe('unchanged')
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe('{"a":2}')
  })

  test('null removes the file and its copies; removing again is harmless', () => {
    expect(writeArtifact(root, path, null, now)).toBe('removed')
    // The post's folder went with its last file.
    expect(existsSync(join(root, 'api/v1/blog/posts/hello'))).toBe(false)
    expect(existsSync(join(root, 'api/v1/blog/posts'))).toBe(true)
    expect(writeArtifact(root, path, null, now)).toBe('absent')
  })
})
