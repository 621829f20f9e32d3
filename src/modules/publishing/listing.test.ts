import { expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { walkCache } from './listing.ts'

const walk = (root: string) => {
  const seen: string[] = []
  walkCache(root, ['api', 'en', 'missing'], (path) => seen.push(path))
  return seen.sort()
}

/** Folders last changed a minute ago: their listings may be kept. */
const settle = (root: string, ...folders: string[]) => {
  const past = new Date(Date.now() - 60_000)
  for (const folder of folders) utimesSync(join(root, folder), past, past)
}

test('a walk sees every file, and one added, removed or renamed in a folder listed before', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-listing-'))
  try {
    mkdirSync(join(root, 'api/posts/a'), { recursive: true })
    mkdirSync(join(root, 'en'))
    for (const file of ['api/posts/a/@', 'api/posts/a/@.br', 'api/posts/@', 'en/@']) writeFileSync(join(root, file), 'x')
    settle(root, 'api', 'api/posts', 'api/posts/a', 'en')
    expect(walk(root)).toEqual(['api/posts/@', 'api/posts/a/@', 'api/posts/a/@.br', 'en/@'])
    const listing = join(root, '.folio-listing')
    expect(existsSync(listing)).toBe(true)

    // Nothing changed: the same files, and the listings are not written again.
    const written = statSync(listing).mtimeMs
    expect(walk(root)).toEqual(['api/posts/@', 'api/posts/a/@', 'api/posts/a/@.br', 'en/@'])
    expect(statSync(listing).mtimeMs).toBe(written)

    // A file deleted, one added in a new folder, junk beside: each folder changed is listed again.
    unlinkSync(join(root, 'api/posts/a/@.br'))
    mkdirSync(join(root, 'api/posts/b'))
    writeFileSync(join(root, 'api/posts/b/@'), 'x')
    writeFileSync(join(root, 'en/junk.txt'), 'x')
    expect(walk(root)).toEqual(['api/posts/@', 'api/posts/a/@', 'api/posts/b/@', 'en/@', 'en/junk.txt'])

    // A folder removed whole; a temp file is seen by every walk until it goes.
    rmSync(join(root, 'api/posts/b'), { recursive: true })
    writeFileSync(join(root, 'en/.@.1.1.tmp'), 'x')
    settle(root, 'api/posts', 'en')
    expect(walk(root)).toEqual(['api/posts/@', 'api/posts/a/@', 'en/.@.1.1.tmp', 'en/@', 'en/junk.txt'])
    expect(walk(root)).toContain('en/.@.1.1.tmp')
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

test('folders changed within the last seconds, and an unreadable listing file, are listed again', () => {
  const root = mkdtempSync(join(tmpdir(), 'folio-listing-'))
  try {
    mkdirSync(join(root, 'en/blog'), { recursive: true })
    writeFileSync(join(root, 'en/blog/@'), 'x')
    // Just written: the kernel's coarse clock could give a change in the same tick the same mtime.
    const kept = () => (existsSync(join(root, '.folio-listing')) ? readFileSync(join(root, '.folio-listing'), 'utf8') : '')
    walk(root)
    expect(kept()).not.toContain('en/blog')
    settle(root, 'en', 'en/blog')
    walk(root)
    expect(kept()).toContain('en/blog')
    writeFileSync(join(root, '.folio-listing'), '{not json')
    expect(walk(root)).toEqual(['en/blog/@'])
    expect(kept()).toContain('en/blog')
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
