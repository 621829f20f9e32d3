import { describe, expect, test } from 'bun:test'
import { getTableColumns, getTableName } from 'drizzle-orm'
import { migrateDatabase, openDatabase } from '../../db/client.ts'
import { categories, posts } from '../../db/schema/index.ts'
import { allPostStates } from './plan.ts'

const db = openDatabase(':memory:')
migrateDatabase(db)
const sqlite = db.$client

describe("a post's fingerprint", () => {
  test('the trigger watches every column of posts but the engagement counts (a column added later must join it)', () => {
    const trigger = sqlite.query(`select sql from sqlite_master where type = 'trigger' and name = 'posts_shown_revision'`).get() as {
      sql: string
    }
    const watched = /AFTER UPDATE OF (.*) ON `posts`/
      .exec(trigger.sql)![1]!
      .split(', ')
      .map((c) => c.replaceAll('`', ''))
    const generated = (sqlite.query(`pragma table_xinfo(${getTableName(posts)})`).all() as { name: string; hidden: number }[])
      .filter((c) => c.hidden !== 0)
      .map((c) => c.name)
    const unwatched = [posts.clapCount.name, posts.commentCount.name, posts.shownRevision.name, ...generated]
    const shown = Object.values(getTableColumns(posts))
      .map((c) => c.name)
      .filter((name) => !unwatched.includes(name))
    expect(watched.sort()).toEqual(shown.sort())
  })

  test('moves with every write of a shown column or of the whole row, whoever writes it, and not with the counts', () => {
    const [category] = db.insert(categories).values({ nameEn: 'C', nameZh: 'C', slug: 'c' }).returning().all()
    const [post] = db
      .insert(posts)
      .values({ language: 'en', slug: 'p', title: 'T', contentHtml: '<p>x</p>', categoryId: category!.id, status: 1 })
      .returning()
      .all()
    const fingerprint = () => allPostStates(db).get(post!.id)!.inputs
    const first = fingerprint()
    sqlite.run('update posts set clap_count = clap_count + 1, comment_count = 3 where id = ?', [post!.id])
    expect(fingerprint()).toBe(first)
    sqlite.run('update posts set content_html = ? where id = ?', ['<p>edited in sqlite3</p>', post!.id])
    const second = fingerprint()
    expect(second).not.toBe(first)
    sqlite.run('update posts set status = 1 where id = ?', [post!.id])
    const third = fingerprint()
    expect(third).not.toBe(second)
    // A row put back whole (REPLACE: a delete and an insert) takes a new revision too, never an old one.
    sqlite.run(
      "insert or replace into posts (id, language, slug, title, content_html, category_id, status) values (?, 'en', 'p', 'T', '<p>x</p>', ?, 1)",
      [post!.id, category!.id],
    )
    expect([first, second, third]).not.toContain(fingerprint())
  })
})
