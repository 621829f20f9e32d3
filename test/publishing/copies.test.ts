import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { seedPublishedCopies } from '../../bench/support/seed.ts'
import { COPIES_MIN_BYTES, COPY_EXTENSIONS, copiesOf } from '../../src/modules/publishing/copies-rule.ts'
import { COPIES_EVERY_MS } from '../../src/modules/publishing/destinations.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { until } from '../support/until.ts'
import { TEST_ENV } from '../webhooks/receiver.ts'

// The precompressed copies are written on the copies thread by passes of more than one slice (a
// rebuild's) and on the render thread by smaller ones (a publish's) (publishing/copies.ts); these
// check what a reader of CACHE_DIR can see meanwhile and after.
const B = '/api/v1/blog'
const started: Folio[] = []
afterAll(async () => {
  for (const folio of started) await folio.dispose()
})

/**
 * A running server; with `posts`, that many published posts (seeded in SQLite: passes of several
 * slices). On a movable clock: the copies throttle (COPIES_EVERY_MS) goes by it, so a test moves it
 * past the span instead of sleeping through it.
 */
async function start(posts = 0) {
  const folio = await startFolio({ SITE_URL: 'https://blog.example.org', ...TEST_ENV }, { movableClock: true })
  started.push(folio)
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const publish = (overrides: Record<string, unknown> = {}) =>
    publishNewPost(folio, token, publishablePost(categoryId, authorId, overrides))
  const template = posts ? await publish() : null
  if (template) {
    await folio.stop()
    seedPublishedCopies(folio.dataDir, template.id, posts - 1)
    await folio.restart()
  }
  return { folio, token, publish, template }
}

/** Every artifact's main file under the cache (copies and temp files aside). */
const mainFiles = (cacheDir: string) =>
  readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.startsWith('@') && !/\.(br|gz|tmp)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))

const seconds = (file: string) => Math.floor(statSync(file).mtimeMs / 1000)
const read = (file: string) => (existsSync(file) ? readFileSync(file) : null)

describe('precompressed copies', () => {
  test("after a rebuild's passes, every artifact's copies decompress to its main file's bytes and carry its mtime; the API's JSON and the twins have .gz alone, a small one none", async () => {
    const { folio, token } = await start(40)
    const rebuilt = await folio.cli('rebuild', '--force')
    expect(rebuilt.stdout).toMatch(/rebuilt artifacts: \d{3} rendered/)
    // Copies the seeding's publishes left for a second later (COPIES_EVERY_MS) land as jobs of their own.
    await folio.settled()
    const files = mainFiles(folio.cacheDir)
    expect(files.length).toBeGreaterThan(100)
    const decode = { '.br': brotliDecompressSync, '.gz': gunzipSync }
    const counts = { none: 0, '.gz': 0, '.br .gz': 0 }
    for (const file of files) {
      const bytes = readFileSync(file)
      const copies = copiesOf(relative(folio.cacheDir, file), bytes.length)
      counts[(copies.join(' ') || 'none') as keyof typeof counts]++
      // Exactly the copies the rule gives, each its main file's bytes with its mtime second.
      expect([file, COPY_EXTENSIONS.filter((ext) => existsSync(file + ext))]).toEqual([file, [...copies]])
      for (const ext of copies) {
        expect(decode[ext](readFileSync(file + ext))).toEqual(bytes)
        expect(seconds(file + ext)).toBe(seconds(file))
      }
    }
    // Small artifacts, the posts' JSON and twins (gzip alone), their pages (both).
    expect(counts.none).toBeGreaterThan(5)
    expect(counts['.gz']).toBeGreaterThan(80)
    expect(counts['.br .gz']).toBeGreaterThan(40)
    // Whole without copies: the next rebuild renders nothing again, and verifying finds no damage.
    expect((await folio.cli('rebuild', '--verify')).stdout).toMatch(/rebuilt artifacts: 0 rendered, 0 written/)

    // One artifact growing over the threshold and shrinking under it again: an author's JSON.
    const saveAuthor = async (bio: string, id?: number) => {
      const saved = await folio.call('POST', `${B}/authors/save`, { token, body: { id, name: 'Tiny Author', language: 'en', bio } })
      expect(saved.body.code).toBe('0000')
      await folio.settled()
      return saved.body.data as { id: number; slug: string }
    }
    const author = await saveAuthor('Short.')
    const file = join(folio.cacheDir, `api/v1/blog/authors/${author.slug}/@`)
    const copies = () => [existsSync(`${file}.br`), existsSync(`${file}.gz`)]
    expect(statSync(file).size).toBeLessThan(COPIES_MIN_BYTES)
    expect(copies()).toEqual([false, false])
    const long = 'A bio long enough for compressed copies. '.repeat(40)
    await saveAuthor(long, author.id)
    expect(statSync(file).size).toBeGreaterThanOrEqual(COPIES_MIN_BYTES)
    // The API's JSON: its gzip copy alone (copies-rule.ts).
    expect(copies()).toEqual([false, true])
    expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(readFileSync(file))
    // Shrunk: the larger version's copies went with it (and none is due: `settled` saw no job left).
    await saveAuthor('Short again.', author.id)
    expect(statSync(file).size).toBeLessThan(COPIES_MIN_BYTES)
    expect(copies()).toEqual([false, false])
    // Grown again within COPIES_EVERY_MS of its last copies: they come by a job due once the span has passed.
    await saveAuthor(`${long}!`, author.id)
    await folio.advanceClock(COPIES_EVERY_MS + 100)
    await folio.settled()
    expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(readFileSync(file))
    expect(readFileSync(file, 'utf8')).toContain(`${long}!`)
  })

  test('a path rewritten by the next passes, of this process or another, never shows copies of its old bytes', async () => {
    const { folio, token, template: post } = await start(40)
    const file = join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`)
    await folio.cli('rebuild')
    // A reader polls the post's files while it is edited and rebuilt: whenever the main file
    // stayed the same file across a look at a copy, that copy holds its bytes.
    let looks = 0
    let editing = true
    const reader = (async () => {
      while (editing) {
        const before = statSync(file).ino
        const bytes = readFileSync(file)
        const br = read(`${file}.br`)
        const gz = read(`${file}.gz`)
        if (statSync(file).ino === before) {
          if (br) expect(brotliDecompressSync(br)).toEqual(bytes)
          if (gz) expect(gunzipSync(gz)).toEqual(bytes)
          looks++
        }
        await Bun.sleep(2)
      }
    })()
    try {
      // A forced rebuild in another process rewrites every file, its copies on the copies thread;
      // then edits more than COPIES_EVERY_MS apart on the server's clock (each pass writes the
      // copies, none left for later).
      expect((await folio.cli('rebuild', '--force')).code).toBe(0)
      let current = post
      for (let edit = 1; edit <= 3; edit++) {
        await folio.advanceClock(COPIES_EVERY_MS + 100)
        const saved = await folio.call('POST', `${B}/posts/save`, { token, body: { ...current, title: `${post.title} (edit ${edit})` } })
        expect(saved.body.code).toBe('0000')
        current = saved.body.data
      }
      await folio.settled()
    } finally {
      editing = false
      await reader
    }
    expect(looks).toBeGreaterThan(100)
    expect(JSON.parse(readFileSync(file, 'utf8')).data.title).toEndWith('(edit 3)')
    expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(readFileSync(file))
  })

  test('copies the copies thread cannot write leave the main file served; a later job writes them', async () => {
    const { folio } = await start(40)
    // A folder where the home list's copy goes (`.gz` alone, the API's JSON): renaming a copy onto it fails, as a full disk would.
    const home = join(folio.cacheDir, 'api/v1/blog/posts/@')
    rmSync(`${home}.gz`)
    mkdirSync(`${home}.gz`)
    const rebuilt = await folio.cli('rebuild', '--force')
    expect(rebuilt.code).toBe(0)
    // The running server did the rebuild (operations/rebuild-control.ts): the warning is in its log, written in batches.
    await until(
      () => folio.logs().some((line) => line.message === 'artifact copies not written'),
      'the server never logged "artifact copies not written"',
    )
    expect(statSync(`${home}.gz`).isDirectory()).toBe(true)
    const served = await folio.call('GET', `${B}/posts`)
    expect(served.status).toBe(200)
    expect(served.text).toBe(readFileSync(home, 'utf8'))
    // The copies wait as a job of their own, counted as failing (the service says it is degraded),
    // retried further apart each time like a failed render. Not pending while a pass has it, so it
    // is looked for, within a bound.
    const health = async () => (await folio.call('GET', '/healthz')).body.data as { status: string; render: { failing: number } }
    await until(async () => (await health()).render.failing > 0, 'the copies never waited as a failing job of their own')
    expect((await health()).status).toBe('degraded')
    // Once they can be written, the next retry (at most a minute away: the clock is moved) writes them.
    rmdirSync(`${home}.gz`)
    await folio.advanceClock(60_000)
    await folio.settled()
    expect((await health()).render.failing).toBe(0)
    expect(gunzipSync(readFileSync(`${home}.gz`))).toEqual(readFileSync(home))
    expect(seconds(`${home}.gz`)).toBe(seconds(home))
    expect(existsSync(`${home}.br`)).toBe(false)
  })
})
