import { afterAll, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { artifactFiles } from '../../src/db/schema/index.ts'
import { completeBits, MAIN_FILE } from '../../src/modules/publishing/disk-scan.ts'
import { ABSENT } from '../../src/modules/publishing/jobs.ts'
import { markingStage } from '../../src/modules/publishing/marking.ts'
import { migratedTempDb } from '../support/temp-db.ts'

const { db, dir, dispose } = migratedTempDb('folio-marking-')
afterAll(dispose)
const cacheDir = join(dir, 'cache')
const put = (path: string) => {
  mkdirSync(dirname(join(cacheDir, path)), { recursive: true })
  writeFileSync(join(cacheDir, path), 'x')
}

// Seven posts' files, in chunks of two: every page of each walk is followed by the next.
const live = Array.from({ length: 7 }, (_, i) => `en/post-${i}/@`)
for (const path of live) for (const ext of ['', '.br', '.gz']) put(path + ext)
put('en/post-5/@.br') // a second note of the same copy changes nothing
put('en/old-slug/@') // stray: nothing calls for it
put('en/old-slug/@.gz')
put('en/junk/@language=en') // stray, an older version's alias
put('en/no-copies/@') // expected, the main file alone
// A Markdown twin gets `.gz` alone (copies-rule.ts): the `.br` an older release wrote is a stray of its own.
for (const ext of ['', '.br', '.gz']) put(`en/blog/twin.md/@${ext}`)
const expected = [...live, 'en/no-copies/@', 'en/gone/@', 'en/empty/@', 'en/blog/twin.md/@']
db.insert(artifactFiles)
  .values([
    { path: 'en/post-0/@', hash: 'h0' },
    { path: 'en/gone/@', hash: 'h-gone' }, // its file is missing: forgotten
    { path: 'en/empty/@', hash: ABSENT }, // renders to nothing, nothing there: kept
    { path: 'en/old-slug/@', hash: ABSENT }, // absent, but a file is there: forgotten
    { path: 'en/retired/@', hash: ABSENT }, // absent, and nothing calls for it: forgotten
  ])
  .run()

test('the marking walks the disk, the expected files and the strays in sorted chunks smaller than the site', () => {
  const stage = markingStage(db.$client, 2)
  try {
    stage.scan(cacheDir, ['en'], Date.now())
    const told: string[] = []
    stage.expect([...expected, 'en/post-0/@', 'en/odd path/@'], (path, hash) => {
      told.push(`${path}:${hash ?? '-'}`)
      return path !== 'en/odd path/@'
    })
    // Each path is told its manifest hash; one refused is not expected (nor, on disk, would it be kept).
    expect(told).toContain('en/post-0/@:h0')
    expect(told).toContain('en/empty/@:')
    stage.forget(true)

    const pages = [...stage.expected()]
    expect(pages.every((page) => page.length <= 2)).toBe(true)
    const files = pages.flat()
    expect(files.map((f) => f.path)).toEqual([...expected].sort())
    const of = (path: string) => files.find((f) => f.path === path)!
    expect(of('en/post-0/@')).toEqual({ path: 'en/post-0/@', bits: completeBits('en/post-0/@'), hash: 'h0' })
    expect(of('en/post-5/@').bits).toBe(completeBits('en/post-5/@'))
    expect(of('en/no-copies/@')).toEqual({ path: 'en/no-copies/@', bits: MAIN_FILE, hash: null })
    expect([completeBits('en/post-0/@'), of('en/blog/twin.md/@').bits, completeBits('en/blog/twin.md/@')]).toEqual([7, 5, 5])
    // A hash without its file, and an absent artifact with a file, are forgotten; an absent one with nothing there is kept.
    expect(of('en/gone/@')).toEqual({ path: 'en/gone/@', bits: 0, hash: null })
    expect(of('en/empty/@').hash).toBe(ABSENT)

    const strays = [...stage.strays()]
    expect(strays.every((page) => page.length <= 2)).toBe(true)
    expect(strays.flat().map((s) => s.path)).toEqual(['en/blog/twin.md/@.br', 'en/junk/@language=en', 'en/old-slug/@'])
    expect(
      db
        .select()
        .from(artifactFiles)
        .all()
        .map((r) => r.path)
        .sort(),
    ).toEqual(['en/empty/@', 'en/post-0/@'])
  } finally {
    stage.drop()
  }
  // The staging is gone with the marking; a cache not its own loses the whole manifest.
  expect(db.$client.query("select count(*) as n from temp.sqlite_master where name like 'rebuild_%'").get()).toEqual({ n: 0 })
  const again = markingStage(db.$client, 2)
  again.forget(false)
  again.drop()
  expect(db.select().from(artifactFiles).all()).toEqual([])
})
