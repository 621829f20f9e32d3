import { describe, expect, test } from 'bun:test'
import { migrateDatabase, openDatabase } from '../../db/client.ts'
import { categories, posts, postTags, tags } from '../../db/schema/index.ts'
import { toPostResMany } from './present.ts'
import { listPublicPosts, postLists, type PostListQuery } from './public.ts'

// A snapshot's lists must answer every page exactly as `GET posts` does, in whatever order the
// pass asks for them, while reading each list once.
function site() {
  const db = openDatabase(':memory:')
  migrateDatabase(db)
  const [news, notes] = db
    .insert(categories)
    .values([
      { slug: 'news', nameEn: 'News' },
      { slug: 'notes', nameEn: 'Notes' },
    ])
    .returning()
    .all()
  const [tag] = db.insert(tags).values({ slug: 'bun', nameEn: 'Bun', language: 'all' }).returning().all()
  const rows = Array.from({ length: 27 }, (_, i) => ({
    language: i % 3 === 0 ? ('zh' as const) : ('en' as const),
    slug: `post-${i}`,
    title: `Post ${i}`,
    contentHtml: `<p>${i}</p>`,
    categoryId: (i % 2 ? news : notes)!.id,
    status: i === 5 ? 0 : 1,
    // Two posts share a time: the id breaks the tie.
    publishedAt: `2026-01-${String(1 + Math.min(i, 20)).padStart(2, '0')} 10:00:00`,
  }))
  const made = db.insert(posts).values(rows).returning({ id: posts.id }).all()
  db.insert(postTags)
    .values(made.filter((_, i) => i % 4 === 0).map((p) => ({ postId: p.id, tagId: tag!.id })))
    .run()
  return { db, news: news!.id, tag: tag!.id }
}

describe("a snapshot's post lists", () => {
  test('answer each page as GET posts does, in any order, deeper pages and empty ones included', () => {
    const { db, news, tag } = site()
    const lists = postLists(db)
    const queries: PostListQuery[] = [
      { current: 3, size: 10 },
      { current: 1, size: 10 },
      { current: 1, size: 20 },
      { current: 2, size: 10 },
      { current: 4, size: 10 },
      { language: 'en', current: 2, size: 12 },
      { language: 'en', current: 1, size: 12 },
      { language: 'en', categoryId: news, current: 1, size: 5 },
      { tagId: tag, current: 1, size: 3 },
      { tagId: tag, current: 2, size: 3 },
      { keyword: 'Post 1', current: 1, size: 4 },
    ]
    for (const query of queries) expect(lists.page(query)).toEqual(listPublicPosts(db, query))
  })

  test('a post shown by many lists is one card', () => {
    const { db } = site()
    const lists = postLists(db)
    const all = lists.page({ current: 1, size: 5 }).records
    const en = lists.page({ language: 'en', current: 1, size: 5 }).records
    expect(en.filter((card) => all.includes(card)).length).toBeGreaterThan(0)
  })
})

describe('a batch of post details', () => {
  test('each lists the 3 discoverable posts of its language and category published just before it, ties broken by id; a post named twice is read once', () => {
    const { db } = site()
    const all = db.select().from(posts).all()
    const older = (a: (typeof all)[number], b: (typeof all)[number]) =>
      a.publishedAt! < b.publishedAt! || (a.publishedAt === b.publishedAt && a.id < b.id)
    const expected = (row: (typeof all)[number]) =>
      all
        .filter((p) => p.listed === 1 && p.language === row.language && p.categoryId === row.categoryId && older(p, row))
        .sort((a, b) => (older(a, b) ? 1 : -1))
        .slice(0, 3)
        .map((p) => p.id)
    const batch = [...all, all[21]!]
    const details = toPostResMany(db, batch)
    batch.forEach((row, i) => expect([row.id, details[i]!.relatedPosts.map((p) => p.id)]).toEqual([row.id, expected(row)]))
    // Somewhere in the batch, ties on the time are broken by id.
    expect(details.some((d) => new Set(d.relatedPosts.map((p) => p.publishedAt)).size < d.relatedPosts.length)).toBe(true)
  })
})
