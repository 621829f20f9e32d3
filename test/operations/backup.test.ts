import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathOf } from '../../src/modules/artifacts/paths.ts'
import { png } from '../media/fixtures.ts'
import { publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

const TABLES = ['posts', 'media', 'post_tags', 'categories', 'authors', 'tags', 'settings'] as const
const SITE_URL = 'https://blog.example.com'
const VARIANT_COLUMNS = new Set(['variants', 'width', 'height', 'largest_variant_size'])

function rows(dataDir: string) {
  const db = new Database(join(dataDir, 'folio.db'), { readonly: true })
  try {
    return Object.fromEntries(
      TABLES.map((table) => {
        // A media row's variants and intrinsic size are filled in by a background job after the upload
        // (docs/media.md): a later state of the same row, not a row the backup invented.
        const columns = (db.query(`PRAGMA table_xinfo("${table}")`).all() as { name: string; hidden: number }[]).filter(
          (c) => c.hidden === 0 && !(table === 'media' && VARIANT_COLUMNS.has(c.name)),
        )
        return [
          table,
          db
            .query(`SELECT ${columns.map((c) => `"${c.name}"`).join(', ')} FROM "${table}"`)
            .all()
            .map((r) => JSON.stringify(r)),
        ]
      }),
    ) as Record<(typeof TABLES)[number], string[]>
  } finally {
    db.close()
  }
}

let a: Folio
let token: string
let taxonomy: { categoryId: number; authorId: number }
const base = mkdtempSync(join(tmpdir(), 'folio-backup-'))
const archive = join(base, 'backups', 'folio.tar.gz')
// backup refuses a folder that does not exist (a typo would otherwise make one).
mkdirSync(join(base, 'backups'))
const fresh = { DATA_DIR: join(base, 'restored'), CACHE_DIR: join(base, 'restored-cache'), SITE_URL }

let colour = 0
async function publishWithCover(folio: Folio) {
  const form = new FormData()
  colour++
  form.append('file', new Blob([png([colour % 256, (colour >> 8) % 256, 7])], { type: 'image/png' }), 'cover.png')
  const cover = (await folio.call('POST', '/api/v1/blog/media/upload', { token, body: form })).body.data as string
  const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
    token,
    body: { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), coverImage: cover, status: 1 },
  })
  expect(saved.body.code).toBe('0000')
}

beforeAll(async () => {
  a = await startFolio({ SITE_URL })
  token = await a.token('blog:read', 'blog:write', 'blog:publish')
  taxonomy = await seedTaxonomy(a, token)
  for (let i = 0; i < 3; i++) await publishWithCover(a)
})
afterAll(async () => {
  await a.dispose()
  rmSync(base, { recursive: true, force: true })
})

describe('backup and restore', () => {
  let before: ReturnType<typeof rows>
  let backupOut: { code: number; stdout: string; stderr: string }

  test('a backup taken while posts with media keep being published', async () => {
    before = rows(a.dataDir)
    let writing = true
    let written = 0
    const writer = (async () => {
      // Bounded: at most 40 posts, and it stops as soon as the backup is done.
      while (writing && written < 40) {
        await publishWithCover(a)
        written++
      }
    })()
    while (written < 2) await Bun.sleep(20)
    backupOut = await a.cli('backup', archive)
    writing = false
    await writer
    expect(backupOut.code).toBe(0)
    expect(backupOut.stdout).toMatch(/^backed up folio\.tar\.gz: database \(\d+ bytes\) and \d+ media files/)
    expect(existsSync(`${archive}.partial`)).toBe(false)
  })

  test('restores into a fresh DATA_DIR, and the restored server has the rows, media and artifacts of that moment', async () => {
    const restore = await a.cli('restore', archive)
    // The harness runs the CLI with A's environment; restore into the fresh folder instead.
    expect(restore.code).toBe(1)
    expect(restore.stderr.trim()).toMatch(/^folio: a Folio server is running on DATA_DIR/)

    const restored = await cli(fresh, 'restore', archive)
    expect(restored.code).toBe(0)
    expect(restored.stdout).toMatch(/^restored folio\.tar\.gz: database/)

    const after = rows(a.dataDir)
    const copy = rows(fresh.DATA_DIR)
    for (const table of TABLES) {
      // Everything there before the backup began is in it; nothing is in it that A never had.
      expect(copy[table]).toEqual(expect.arrayContaining(before[table]))
      expect(after[table]).toEqual(expect.arrayContaining(copy[table]))
    }
    expect(copy.posts.length).toBeGreaterThan(before.posts.length)

    const b = await startFolio(fresh)
    try {
      const posts = copy.posts.map((row) => JSON.parse(row) as { slug: string; language: 'en'; status: number; cover_image: string })
      for (const post of posts.filter((p) => p.status === 1)) {
        const file = pathOf({ kind: 'post', language: post.language, slug: post.slug })
        expect(readFileSync(join(fresh.CACHE_DIR, file), 'utf8')).toBe(readFileSync(join(a.cacheDir, file), 'utf8'))
        const key = post.cover_image.slice(`${SITE_URL}/media/`.length)
        const [mine, theirs] = await Promise.all([fetch(`${b.url}/media/${key}`), fetch(`${a.url}/media/${key}`)])
        expect(mine.status).toBe(200)
        expect(Buffer.from(await mine.arrayBuffer())).toEqual(Buffer.from(await theirs.arrayBuffer()))
      }
      const again = await cli(fresh, 'restore', archive, '--force')
      expect(again.code).toBe(1)
      expect(again.stderr.trim()).toMatch(/^folio: a Folio server is running/)
    } finally {
      await b.stop()
    }
  })

  test('refuses a folder that already holds data without --force, and moves it aside with --force', async () => {
    const refused = await cli(fresh, 'restore', archive)
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/already holds a database or media.*--force/)])
    const forced = await cli(fresh, 'restore', archive, '--force')
    expect(forced.code).toBe(0)
    expect(forced.stdout).toMatch(/the files that were in DATA_DIR are in .*replaced-/)
  })

  test('refuses a file that is not a backup', async () => {
    const bogus = join(base, 'bogus.tar.gz')
    await Bun.write(bogus, 'not a tarball')
    const out = await cli({ ...fresh, DATA_DIR: join(base, 'empty') }, 'restore', bogus)
    expect(out.code).toBe(1)
    expect(out.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^folio: .*not a Folio backup/)])
  })
})

/** The CLI with A's environment but another data folder. */
async function cli(env: Record<string, string>, ...args: string[]) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, '../../src/cli.ts'), ...args], {
    env: { ...a.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, stdout, stderr }
}
