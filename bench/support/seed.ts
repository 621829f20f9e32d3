import { Database } from 'bun:sqlite'
import { join } from 'node:path'
import { publishablePost, publishNewPost, seedTaxonomy } from '../../test/support/fixtures.ts'
import type { Folio } from '../../test/support/folio.ts'

/**
 * Clones a published post `count` times straight in SQLite (each copy with its own slug and
 * publication time), so a benchmark gets 10,000 realistic posts in seconds instead of 10,000
 * HTTP round trips. The template went through the real API, so every copy is a valid post.
 */
export function seedPublishedCopies(dataDir: string, templateId: number, count: number): void {
  const db = new Database(join(dataDir, 'folio.db'))
  db.exec('PRAGMA busy_timeout = 5000')
  const columns = (db.query("select name from pragma_table_info('posts')").all() as { name: string }[])
    .map((c) => c.name)
    .filter((name) => !['id', 'slug', 'published_at', 'title'].includes(name))
  const insert = db.prepare(
    `insert into posts (${columns.join(', ')}, slug, title, published_at)
     select ${columns.join(', ')}, slug || '-copy-' || ?1, title || ' #' || ?1, datetime(published_at, '-' || ?1 || ' minutes') from posts where id = ?2`,
  )
  db.transaction(() => {
    for (let i = 1; i <= count; i++) insert.run(i, templateId)
  })()
  db.close()
}

/**
 * `count` published posts on a running server: a category, an author and one post through the
 * API (`token` needs blog:write and blog:publish), the rest cloned from it while the server is
 * stopped (nothing it holds in memory goes stale); answers when it is listening again, or, with
 * `restart` false, leaves it stopped (a CLI command then works on the data alone).
 */
export async function seedPublished(folio: Folio, token: string, count: number, restart = true) {
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const template = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  await folio.stop()
  const started = performance.now()
  seedPublishedCopies(folio.dataDir, template.id, count - 1)
  const seededMs = performance.now() - started
  if (restart) await folio.restart()
  return { categoryId, authorId, template, seededMs }
}
