import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MigrationError } from '../../src/db/baseline.ts'
import { migrateDatabase, openDatabase } from '../../src/db/client.ts'
import { buildFixtureDatabase, FIXTURE_SETS, FIXTURES, LATEST_SET } from '../fixtures/upgrade/build.ts'
import { startFolio } from '../support/folio.ts'

const base = mkdtempSync(join(tmpdir(), 'folio-upgrade-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
let n = 0
const fixture = (set: string) => {
  const dir = join(base, `${set}-${++n}`)
  mkdirSync(dir)
  buildFixtureDatabase(join(dir, 'folio.db'), set)
  return dir
}

type Row = Record<string, unknown>

/** A set shipped after migrations were frozen: its 0000 is today's. */
const frozen = (set: string) =>
  readFileSync(join(FIXTURES, set, '0000_init.sql'), 'utf8') === readFileSync(join(import.meta.dir, '../../drizzle/0000_init.sql'), 'utf8')

/** Every row of every table (ordinary columns, in rowid order), and the AUTOINCREMENT counters. */
function contents(file: string) {
  const db = new Database(file, { readonly: true })
  try {
    const tables = (
      db
        // Ordinary tables: a virtual table (the search index) and its shadow tables are derived data.
        .query(
          `SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'`,
        )
        .all() as { name: string }[]
    ).map((t) => t.name)
    const rows: Record<string, Row[]> = {}
    for (const table of tables) {
      const columns = (db.query(`PRAGMA table_xinfo("${table}")`).all() as { name: string; hidden: number }[]).filter((c) => c.hidden === 0)
      rows[table] = db.query(`SELECT ${columns.map((c) => `"${c.name}"`).join(', ')} FROM "${table}" ORDER BY rowid`).all() as Row[]
    }
    return { rows, sequences: db.query('SELECT name, seq FROM sqlite_sequence ORDER BY name').all() }
  } finally {
    db.close()
  }
}

const schema = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return db.query(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all()
  } finally {
    db.close()
  }
}

const migrated = (file: string) => {
  const db = openDatabase(file)
  try {
    return migrateDatabase(db)
  } finally {
    db.$client.close()
  }
}

/** Columns a migration dropped on purpose: `users.require_passkey` (0018), never read (the passkey rule is site-wide). */
const DROPPED: Record<string, readonly string[]> = { users: ['require_passkey'] }

describe('upgrading a database made by an earlier Folio', () => {
  const fresh = join(base, 'fresh.db')
  migrated(fresh)

  test.each(FIXTURE_SETS)('%s: every row is kept and the schema is today’s', (set) => {
    const file = join(fixture(set), 'folio.db')
    const before = contents(file)
    expect(Object.values(before.rows).every((rows) => rows.length > 0)).toBe(true)
    // Sets made before migrations were frozen hold an earlier 0000 and are baselined; later ones only migrate.
    expect(migrated(file)).toBe(frozen(set) ? 'fresh-or-current' : 'baselined')
    const after = contents(file)
    // Columns a later migration added (with their defaults) are new; every column the row had keeps
    // its value, but for the few a migration dropped on purpose (DROPPED).
    const kept = (table: string, rows: Row[], like: Row[]) => {
      const columns = Object.keys(like[0] ?? {}).filter((c) => !DROPPED[table]?.includes(c))
      return rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])))
    }
    for (const [table, rows] of Object.entries(before.rows))
      expect({ table, rows: kept(table, after.rows[table] ?? [], rows) }).toEqual({ table, rows: kept(table, rows, rows) })
    expect(after.sequences).toEqual(expect.arrayContaining(before.sequences as any[]))
    expect(schema(file)).toEqual(schema(fresh))
    // A second start finds nothing to do.
    expect(migrated(file)).toBe('fresh-or-current')
  })

  test('revisions the first 0009 gave (each row its own OLD + 1) are never handed out again by the counter 0010 brings', () => {
    const file = join(fixture('main-39ee68d'), 'folio.db')
    const sqlite = new Database(file)
    const id = (sqlite.query('SELECT min(id) AS id FROM posts').get() as { id: number }).id
    for (let i = 0; i < 3; i++) sqlite.run(`UPDATE posts SET title = title || '!' WHERE id = ?`, [id])
    const recorded = (sqlite.query('SELECT shown_revision AS r FROM posts WHERE id = ?').get(id) as { r: number }).r
    sqlite.close()
    expect(recorded).toBe(3)
    migrated(file)
    const db = new Database(file)
    try {
      const other = (db.query('SELECT max(id) AS id FROM posts').get() as { id: number }).id
      db.run(`UPDATE posts SET title = title || '?' WHERE id = ?`, [other])
      expect((db.query('SELECT shown_revision AS r FROM posts WHERE id = ?').get(other) as { r: number }).r).toBeGreaterThan(recorded)
    } finally {
      db.close()
    }
  })

  test('a database holding a table no Folio schema has is refused and left as it was', () => {
    const file = join(fixture(FIXTURE_SETS[0]!), 'folio.db')
    const sqlite = new Database(file)
    sqlite.exec('CREATE TABLE notes (id integer primary key, body text)')
    sqlite.close()
    const before = schema(file)
    expect(() => migrated(file)).toThrow(MigrationError)
    expect(schema(file)).toEqual(before)
  })

  test('a database migrated by a newer Folio is refused', () => {
    const file = join(fixture(LATEST_SET), 'folio.db')
    const sqlite = new Database(file)
    sqlite.exec(`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', ${Date.now() + 365 * 86_400_000 * 10})`)
    sqlite.close()
    expect(() => migrated(file)).toThrow(/newer Folio/)
  })

  test.each([LATEST_SET, FIXTURE_SETS[0]!])('the server starts on %s, serves the old posts and takes new writes', async (set) => {
    const dataDir = fixture(set)
    const folio = await startFolio({ DATA_DIR: dataDir, SITE_URL: 'https://blog.example.com' })
    try {
      const published = contents(join(dataDir, 'folio.db')).rows.posts!.find((p: any) => p.status === 1) as {
        slug: string
        language: string
        title: string
      }
      const read = await folio.call('GET', `/api/v1/blog/posts/${published.slug}?language=${published.language}`)
      expect(read.body.code).toBe('0000')
      expect(read.body.data.slug).toBe(published.slug)
      // The start indexed the old posts for search (docs/search.md).
      const found = await folio.call('GET', `/api/v1/blog/search?q=${encodeURIComponent(published.title)}&language=${published.language}`)
      expect(found.body.data.records.map((r: { slug: string }) => r.slug)).toContain(published.slug)
      const token = await folio.token('blog:read', 'blog:write')
      const tag = await folio.call('POST', '/api/v1/blog/tags/save', {
        token,
        body: { nameEn: 'After the upgrade', nameZh: '升级之后', language: 'all' },
      })
      expect(tag.body.code).toBe('0000')
    } finally {
      await folio.dispose()
    }
  })

  test('a refused upgrade stops the start with one line', async () => {
    const dataDir = fixture(LATEST_SET)
    const sqlite = new Database(join(dataDir, 'folio.db'))
    sqlite.exec(`INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('from-the-future', ${Date.now() + 365 * 86_400_000 * 10})`)
    sqlite.close()
    const child = Bun.spawn([process.execPath, join(import.meta.dir, '../../src/main.ts')], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, CACHE_DIR: join(dataDir, 'cache'), PORT: '0' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^folio: .*newer Folio/)])
  })
})
