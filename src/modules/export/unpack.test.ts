import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { create } from 'tar'
import { spareBytes, unpackBounded } from './unpack.ts'

const base = mkdtempSync(join(tmpdir(), 'folio-unpack-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** A .tar.gz of `files` (name → size: zeros, which gzip shrinks to almost nothing, or random bytes) and one symlink. */
async function archive(name: string, files: Record<string, number>, fill: 'zeros' | 'random' = 'zeros'): Promise<string> {
  const src = join(base, `${name}-src`)
  mkdirSync(join(src, 'media'), { recursive: true })
  for (const [path, size] of Object.entries(files))
    writeFileSync(join(src, path), fill === 'zeros' ? Buffer.alloc(size) : randomBytes(size))
  symlinkSync('/etc/passwd', join(src, 'media', 'link'))
  const file = join(base, `${name}.tar.gz`)
  await create({ gzip: true, file, cwd: src, portable: true }, readdirSync(src))
  return file
}

test('plain files under accepted names only: links and other names go nowhere', async () => {
  const file = await archive('names', { 'manifest.json': 10, 'media/a.png': 20, 'other.txt': 5 })
  const out = join(base, 'names-out')
  mkdirSync(out)
  expect(await unpackBounded(file, out, (path) => /^(manifest\.json|media\/)/.test(path), 1024)).toBe(true)
  expect(existsSync(join(out, 'manifest.json'))).toBe(true)
  expect(existsSync(join(out, 'media', 'a.png'))).toBe(true)
  expect(existsSync(join(out, 'other.txt'))).toBe(false)
  expect(existsSync(join(out, 'media', 'link'))).toBe(false)
})

test('an archive past the bound stops there: 2 MiB of files against a 1 MiB bound', async () => {
  const file = await archive('big', { 'media/a.bin': 768 * 1024, 'media/b.bin': 1280 * 1024 }, 'random')
  const out = join(base, 'big-out')
  mkdirSync(out)
  expect(await unpackBounded(file, out, () => true, 1024 * 1024)).toBe(false)
  expect(existsSync(join(out, 'media', 'b.bin'))).toBe(false)
})

test('a gzip bomb (64 MiB of zeros in a ~64 KiB file) is refused before it is written', async () => {
  const file = await archive('bomb', { 'media/b.bin': 64 * 1024 * 1024 })
  const out = join(base, 'bomb-out')
  mkdirSync(out)
  // tar's own decompression-ratio guard aborts it, or the bound does: either way nothing lands.
  const fits = await unpackBounded(file, out, () => true, 1024 * 1024).catch(() => false)
  expect(fits).toBe(false)
  expect(existsSync(join(out, 'media', 'b.bin'))).toBe(false)
})

test('the disk bound is what the disk can spare now', () => {
  expect(spareBytes(base)).toBeGreaterThan(0)
})
