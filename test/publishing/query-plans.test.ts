import { afterAll, describe, expect, test } from 'bun:test'
import { and, asc, desc, eq, fillPlaceholders, sql } from 'drizzle-orm'
import { idIn } from '../../src/db/prepared.ts'
import { posts, postTags, tags } from '../../src/db/schema/index.ts'
import { relatedStatements } from '../../src/modules/posts/present.ts'
import { postsBySlug } from '../../src/modules/artifacts/render/artifact.ts'
import { partnerPairs } from '../../src/modules/artifacts/snapshot.ts'
import { neighbourStatements } from '../../src/modules/site/neighbours.ts'
import { discoverable, publishedAfter, publishedBefore } from '../../src/modules/posts/visibility.ts'
import { migratedTempDb } from '../support/temp-db.ts'

// How the lookups a render pass makes per post grow with the site: each must seek an index to
// its spot (a SEARCH with a range or equality on every column it filters by), never walk the
// posts of a category or language (which made a full rebuild grow with the square of the site).
const { db, dispose } = migratedTempDb('folio-plans-')
afterAll(dispose)

const planOf = (query: { toSQL(): { sql: string; params: unknown[] } }, values: Record<string, unknown> = {}): string => {
  const { sql: text, params } = query.toSQL()
  const rows = db.$client.query(`explain query plan ${text}`).all(...(fillPlaceholders(params, values) as never[])) as { detail: string }[]
  return rows.map((r) => r.detail).join('\n')
}

const sameCategory = and(discoverable, eq(posts.language, 'en'), eq(posts.categoryId, 1))

describe('per-post lookups seek their index', () => {
  test('related posts (the ones published just before) range on published_at', () => {
    const plan = planOf(
      db
        .select()
        .from(posts)
        .where(and(sameCategory, publishedBefore('2026-01-01 00:00:00', 5)))
        .orderBy(desc(posts.publishedAt), desc(posts.id))
        .limit(3),
    )
    expect(plan).toContain('USING INDEX posts_listed_category (listed=? AND category_id=? AND published_at<?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  test("a batch's related posts: one statement, a seek of the category index per post", () => {
    const plan = planOf({ toSQL: () => relatedStatements(db).published.getQuery() }, { sources: '[[5,"en",1,"2026-01-01 00:00:00"]]' })
    expect(plan).toContain('SCAN source VIRTUAL TABLE')
    expect(plan).toContain('CORRELATED LIST SUBQUERY')
    expect(plan).toContain('SEARCH r USING INDEX posts_listed_category (listed=? AND category_id=? AND published_at<?)')
    expect(plan).toContain('SEARCH posts USING INTEGER PRIMARY KEY (rowid=?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  test('newer neighbours (whose related posts show a post) range on published_at', () => {
    const plan = planOf(
      db
        .select()
        .from(posts)
        .where(and(sameCategory, publishedAfter('2026-01-01 00:00:00', 5)))
        .orderBy(asc(posts.publishedAt), asc(posts.id))
        .limit(3),
    )
    expect(plan).toContain('USING INDEX posts_listed_category (listed=? AND category_id=? AND published_at>?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  test("a batch's posts by slug: one seek of the slug index per slug, not a read of the language", () => {
    const plan = planOf({ toSQL: () => postsBySlug(db).getQuery() }, { language: 'en', slugs: '["a","b"]' })
    expect(plan).toContain('SEARCH posts USING INDEX posts_slug (language=? AND <expr>=?)')
  })

  test("a batch's next newer posts: one statement, a seek of the category index per page", () => {
    const plan = planOf({ toSQL: () => neighbourStatements(db).newer.getQuery() }, { sources: '[[5,"en",1,"2026-01-01 00:00:00"]]' })
    expect(plan).toContain('SCAN source VIRTUAL TABLE')
    expect(plan).toMatch(
      /SEARCH n USING INDEX posts_listed_category\S* \(listed=\? AND category_id=\?( AND language=\?)? AND published_at>\?\)/,
    )
    expect(plan).toContain('SEARCH posts USING INTEGER PRIMARY KEY (rowid=?)')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  test("a batch's partners: one statement, a seek of each slug index per page", () => {
    const plan = planOf({ toSQL: () => partnerPairs(db).getQuery() }, { ids: '[1,2]' })
    expect(plan).toContain('SEARCH posts USING INTEGER PRIMARY KEY (rowid=?)')
    expect(plan).toContain('SEARCH partner USING INDEX posts_slug (language=? AND <expr>=?)')
    expect(plan).toContain('SEARCH partner USING INDEX posts_alternate_slug (language=? AND <expr>=?)')
    expect(plan).not.toContain('SCAN partner')
  })

  test("a translation's partner is found through either slug's index", () => {
    const by = (where: ReturnType<typeof sql>) =>
      planOf(
        db
          .select({ id: posts.id })
          .from(posts)
          .where(and(discoverable, eq(posts.language, 'zh'), where)),
      )
    expect(by(sql`lower(${posts.slug}) = lower(${'hello'})`)).toContain('USING INDEX posts_slug (language=? AND <expr>=?)')
    expect(by(sql`lower(${posts.alternateSlug}) = lower(${'hello'})`)).toContain(
      'USING INDEX posts_alternate_slug (language=? AND <expr>=?)',
    )
  })
})

describe('the reads a pass shares seek their index', () => {
  test("a page of cards' embeds: one statement for any number of posts, a seek per post", () => {
    const plan = planOf(
      db
        .select({ postId: postTags.postId, tag: tags })
        .from(postTags)
        .innerJoin(tags, eq(tags.id, postTags.tagId))
        .where(and(idIn(postTags.postId), eq(tags.status, 1)))
        .orderBy(asc(tags.id)),
      { ids: '[1,2,3]' },
    )
    expect(plan).toContain('SEARCH post_tags USING COVERING INDEX sqlite_autoindex_post_tags_1 (post_id=?)')
    expect(plan).toContain('SEARCH tags USING INTEGER PRIMARY KEY (rowid=?)')
  })

  test("a list's count and newest page stay on the listed indexes", () => {
    const list = (where: ReturnType<typeof and>) =>
      planOf(
        db.select({ id: posts.id }).from(posts).where(and(discoverable, where)).orderBy(desc(posts.publishedAt), desc(posts.id)).limit(60),
      )
    const count = (where: ReturnType<typeof and>) =>
      planOf(
        db
          .select({ n: sql`count(*)` })
          .from(posts)
          .where(and(discoverable, where)),
      )
    for (const plan of [list(eq(posts.language, 'en')), count(eq(posts.language, 'en'))])
      expect(plan).toContain('USING INDEX posts_listed (listed=? AND language=?)')
    // A language's category or author list seeks both, so it reads only its own rows, not every post of the category.
    for (const plan of [list(sameCategory), count(sameCategory)])
      expect(plan).toContain('USING INDEX posts_listed_category_language (listed=? AND category_id=? AND language=?)')
    const byAuthor = and(eq(posts.language, 'en'), eq(posts.authorId, 1))
    for (const plan of [list(byAuthor), count(byAuthor)])
      expect(plan).toContain('USING INDEX posts_listed_author_language (listed=? AND author_id=? AND language=?)')
    // Without a language, the category and author indexes still serve the list.
    expect(list(eq(posts.categoryId, 1))).toContain('USING INDEX posts_listed_category (listed=? AND category_id=?)')
    expect(list(eq(posts.authorId, 1))).toContain('USING INDEX posts_listed_author (listed=? AND author_id=?)')
    expect(list(undefined)).not.toContain('TEMP B-TREE')
  })
})
