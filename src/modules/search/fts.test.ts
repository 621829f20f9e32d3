import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { migrateDatabase, openDatabase } from '../../db/client.ts'
import { categories, posts } from '../../db/schema/index.ts'
import { listPublicPosts } from '../posts/public.ts'
import { catchUpSearchIndex, indexPost } from './fts.ts'
import { indexTokens, queryTerms } from './tokens.ts'

// Rows are written straight into SQLite, as an older Folio or a hand-typed UPDATE would: the
// start-up catch-up must index them, and the API's lists must rank through the index.
function world() {
  const db = openDatabase(':memory:')
  migrateDatabase(db)
  const [category] = db.insert(categories).values({ slug: 'notes', nameEn: 'Notes' }).returning().all()
  const post = (language: 'en' | 'zh', slug: string, title: string, summary: string, body: string, day: number) => ({
    language,
    slug,
    title,
    summary,
    contentHtml: `<p>${body}</p>`,
    contentText: body,
    categoryId: category!.id,
    status: 1,
    publishedAt: `2026-01-${String(day).padStart(2, '0')} 10:00:00`,
  })
  const ids = db
    .insert(posts)
    .values([
      post(
        'en',
        'caddy-tuning',
        'Tuning Caddy for static sites',
        'Headers and compression.',
        'Caddy serves the files; SQLite is mentioned once.',
        1,
      ),
      post(
        'en',
        'sqlite-full-text',
        'SQLite full-text search',
        'FTS5 ranks with bm25.',
        'SQLite FTS5 and SQLite triggers, SQLite everywhere.',
        2,
      ),
      post('en', 'newest-note', 'A note on backups', 'Nothing about search.', 'Litestream copies the SQLite file.', 3),
      post('zh', 'shujuku', '数据库管理员的一天', '备份与恢复。', '我们的数据库管理员每天检查备份。', 4),
      post('zh', 'tushuguan', '图书馆里的静态网站', '在图书馆学习。', '静态网站生成器很快。', 5),
    ])
    .returning({ id: posts.id })
    .all()
    .map((r) => r.id)
  expect(catchUpSearchIndex(db)).toBe(5)
  return { db, ids }
}

const slugs = (page: { records: { slug: string }[] }) => page.records.map((r) => r.slug)

describe('the full-text index', () => {
  test('tokens: Latin words folded, Chinese runs as bigrams, hostile input linear', () => {
    expect(indexTokens('Ｓｑｌｉｔｅ Café')).toEqual(['sqlite', 'café'])
    expect(indexTokens('数据库')).toEqual(['数据', '据库', '库'])
    expect(queryTerms('据库 sqlite')).toEqual([
      { tokens: ['据库'], prefix: false },
      { tokens: ['sqlite'], prefix: true },
    ])
    // A long run of CJK and of punctuation, past the body's limit: one regex pass each (no backtracking construct).
    expect(indexTokens('数'.repeat(200_000)).length).toBe(200_000)
    expect(indexTokens('.-'.repeat(200_000))).toEqual([])
    expect(queryTerms('"*:(){}^'.repeat(20))).toEqual([])
  })

  test('search ranks by relevance, title first; Chinese two-character words inside phrases are found', () => {
    const { db } = world()
    const search = (q: string, language?: 'en' | 'zh') => slugs(listPublicPosts(db, { search: q, language, current: 1, size: 10 }))
    // Three posts say SQLite; the one titled with it and saying it most comes first, the newest is not favoured.
    expect(search('sqlite')[0]).toBe('sqlite-full-text')
    expect(search('sqlite').sort()).toEqual(['caddy-tuning', 'newest-note', 'sqlite-full-text'])
    expect(search('SQLITE fts')).toEqual(['sqlite-full-text'])
    // "数据" sits inside "数据库管理员", "管理" inside the same run, "书馆" inside "图书馆".
    expect(search('数据')).toEqual(['shujuku'])
    expect(search('管理')).toEqual(['shujuku'])
    expect(search('书馆', 'zh')).toEqual(['tushuguan'])
    expect(search('书馆', 'en')).toEqual([])
    expect(search('静态网站')).toEqual(['tushuguan'])
    // No word at all, or FTS5 syntax typed by a reader: nothing, never an error.
    expect(search('!!!')).toEqual([])
    expect(search('sqlite" OR "caddy')).toEqual([])
    expect(search('NEAR( {title} : * ^')).toEqual([])
  })

  test('the keyword filter keeps its substring contract and ranks title hits first', () => {
    const { db } = world()
    const keyword = (k: string) => slugs(listPublicPosts(db, { keyword: k, current: 1, size: 10 }))
    // A substring inside a word still matches (spec: searches title, summary, slug).
    expect(keyword('ackup')).toEqual(['newest-note'])
    // Words in any order match; the body is not searched by keyword.
    expect(keyword('search sqlite')).toEqual(['sqlite-full-text'])
    expect(keyword('Litestream')).toEqual([])
    expect(keyword('数据库')).toEqual(['shujuku'])
  })

  test('edits, deletions and writes behind the API are followed', () => {
    const { db, ids } = world()
    const search = (q: string) => slugs(listPublicPosts(db, { search: q, current: 1, size: 10 }))
    db.update(posts).set({ title: 'Backups with Litestream and rsync' }).where(eq(posts.id, ids[2]!)).run()
    expect(search('rsync')).toEqual([])
    expect(catchUpSearchIndex(db)).toBe(1)
    expect(search('rsync')).toEqual(['newest-note'])
    db.update(posts).set({ deletedAt: '2026-02-01 00:00:00' }).where(eq(posts.id, ids[2]!)).run()
    indexPost(db, ids[2]!)
    expect(search('rsync')).toEqual([])
    expect(catchUpSearchIndex(db)).toBe(0)
  })
})
