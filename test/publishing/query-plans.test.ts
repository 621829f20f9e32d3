import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import { migrateDatabase, openDatabase } from '../../src/db/client.ts'
import { posts } from '../../src/db/schema/index.ts'
import { discoverable, publishedAfter, publishedBefore } from '../../src/modules/posts/visibility.ts'

// How the lookups a render pass makes per post grow with the site: each must seek an index to
// its spot (a SEARCH with a range or equality on every column it filters by), never walk the
// posts of a category or language (which made a full rebuild grow with the square of the site).
const dir = mkdtempSync(join(tmpdir(), 'folio-plans-'))
const db = openDatabase(join(dir, 'folio.db'))
migrateDatabase(db)
afterAll(() => {
  db.$client.close()
  rmSync(dir, { recursive: true, force: true })
})

const planOf = (query: { toSQL(): { sql: string; params: unknown[] } }): string => {
  const { sql: text, params } = query.toSQL()
  const rows = db.$client.query(`explain query plan ${text}`).all(...(params as never[])) as { detail: string }[]
  return rows.map((r) => r.detail).join('\n')
}

const sameCategory = and(discoverable, eq(posts.language, 'en'), eq(posts.categoryId, 1))

describe('per-post lookups seek their index', () => {
  test('related posts (the ones published just before) range on published_at', () => {
    const plan = planOf(
      db.select().from(posts).where(and(sameCategory, publishedBefore('2026-01-01 00:00:00', 5))).orderBy(desc(posts.publishedAt), desc(posts.id)).limit(3),
    )
    expect(plan).toContain('USING INDEX posts_listed_category (listed=? AND category_id=? AND published_at<?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  test('newer neighbours (whose related posts show a post) range on published_at', () => {
    const plan = planOf(
      db.select().from(posts).where(and(sameCategory, publishedAfter('2026-01-01 00:00:00', 5))).orderBy(asc(posts.publishedAt), asc(posts.id)).limit(3),
    )
    expect(plan).toContain('USING INDEX posts_listed_category (listed=? AND category_id=? AND published_at>?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  test("a translation's partner is found through either slug's index", () => {
    const by = (where: ReturnType<typeof sql>) => planOf(db.select({ id: posts.id }).from(posts).where(and(discoverable, eq(posts.language, 'zh'), where)))
    expect(by(sql`lower(${posts.slug}) = lower(${'hello'})`)).toContain('USING INDEX posts_slug (language=? AND <expr>=?)')
    expect(by(sql`lower(${posts.alternateSlug}) = lower(${'hello'})`)).toContain('USING INDEX posts_alternate_slug (language=? AND <expr>=?)')
  })
})
