import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { idIn, preparedOnce } from '../../db/prepared.ts'
import { authors, categories, importRedirects, pages, posts, tags } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import { shardOf } from '../redirects/layout.ts'
import { urlPathOf, type ListScope } from '../site/targets.ts'
import type { Counts } from './report.ts'

export type RedirectKind = (typeof importRedirects.$inferSelect)['kind']

/** Query keys that name a thing on a WordPress site (`/?p=123`); any other query is dropped from an old URL. */
const NAMING_KEYS = ['p', 'page_id', 'cat', 'tag', 'author', 'feed']
const MAX_PATH = 2000

/**
 * An old URL (absolute or a path) as `import_redirects` keys it: the path, lower-case, without
 * its trailing slash (but `/`), plus `?key=value` when the query names a thing; null when it is
 * no path at all. Requests are looked up by the same function, so `/Slug`, `/slug/` and
 * `https://old.example/slug/` all find `/slug`.
 */
export function redirectKey(url: string): string | null {
  if (url.length > MAX_PATH) return null
  let parsed: URL
  try {
    parsed = new URL(url, 'http://old.invalid')
  } catch {
    return null
  }
  let path = parsed.pathname.toLowerCase()
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  const named = NAMING_KEYS.find((key) => parsed.searchParams.has(key))
  return named ? `${path}?${named}=${parsed.searchParams.get(named)!.toLowerCase()}` : path
}

/** An import stores about five old URLs per post: built once per connection, not once per URL. */
const statements = preparedOnce((db) => ({
  stored: db
    .select({ kind: importRedirects.kind, targetId: importRedirects.targetId, language: importRedirects.language })
    .from(importRedirects)
    .where(eq(importRedirects.fromPath, sql.placeholder('fromPath')))
    .prepare(),
  store: db
    .insert(importRedirects)
    .values({
      fromPath: sql.placeholder('fromPath'),
      kind: sql.placeholder('kind'),
      targetId: sql.placeholder('targetId'),
      language: sql.placeholder('language'),
      source: sql.placeholder('source'),
      shard: sql.placeholder('shard'),
    })
    .onConflictDoUpdate({
      target: importRedirects.fromPath,
      set: {
        kind: sql`excluded.kind`,
        targetId: sql`excluded.target_id`,
        language: sql`excluded.language`,
        source: sql`excluded.source`,
        shard: sql`excluded.shard`,
      },
    })
    .prepare(),
}))

/** Stores an old URL of a thing; a path already claimed by this source is moved to the new thing. */
export function addRedirect(
  db: Queryable,
  url: string,
  to: { kind: RedirectKind; targetId: number; language: Language },
  source: string,
  counts: Counts,
): void {
  const fromPath = redirectKey(url)
  if (!fromPath || fromPath === '/') return
  const stored = statements(db).stored.get({ fromPath })
  if (stored && stored.kind === to.kind && stored.targetId === to.targetId && stored.language === to.language) {
    counts.unchanged++
    return
  }
  if (stored) counts.updated++
  else counts.created++
  statements(db).store.run({ fromPath, ...to, source, shard: shardOf(fromPath) })
}

/** Which stored redirects to resolve: all, or those in some shards (a render batch's). */
export type RedirectFilter = { shards: readonly string[] } | null

/** The shards holding the old URLs of one thing: what its change re-renders. */
export const shardsOf = (db: Queryable, thing: { kind: RedirectKind; targetId: number }): string[] =>
  db
    .selectDistinct({ shard: importRedirects.shard })
    .from(importRedirects)
    .where(and(eq(importRedirects.kind, thing.kind), eq(importRedirects.targetId, thing.targetId), isNotNull(importRedirects.shard)))
    .all()
    .map((row) => row.shard!)

/**
 * Every shard of stored old URLs (a rebuild's), after giving rows stored before the `shard` column
 * theirs: the rebuild after an upgrade (the kind's stamp changed) moves them to the new layout.
 */
export function everyShard(db: Queryable): string[] {
  const r = importRedirects
  for (const { fromPath } of db.select({ fromPath: r.fromPath }).from(r).where(isNull(r.shard)).all()) {
    const shard = shardOf(fromPath)
    if (shard) db.update(r).set({ shard }).where(eq(r.fromPath, fromPath)).run()
  }
  return db
    .selectDistinct({ shard: r.shard })
    .from(r)
    .where(isNotNull(r.shard))
    .all()
    .map((row) => row.shard!)
}

/**
 * Stored redirects with where each points now (a post renamed since follows; null when its thing
 * is gone or not public), oldest path first: one query joining each to its thing, however many.
 */
export function resolveRedirects(
  db: Queryable,
  filter: RedirectFilter = null,
): { from: string; shard: string | null; to: string | null }[] {
  const r = importRedirects
  const where = filter ? idIn(r.shard, 'shards') : undefined
  const rows = db
    .select({
      from: r.fromPath,
      shard: r.shard,
      kind: r.kind,
      language: r.language,
      post: posts.slug,
      postLanguage: posts.language,
      category: categories.slug,
      tag: tags.slug,
      author: authors.slug,
      page: pages.slug,
      pageLanguage: pages.language,
    })
    .from(r)
    .leftJoin(posts, and(eq(r.kind, 'post'), eq(posts.id, r.targetId), eq(posts.status, 1), isNull(posts.deletedAt)))
    .leftJoin(categories, and(eq(r.kind, 'category'), eq(categories.id, r.targetId)))
    .leftJoin(tags, and(eq(r.kind, 'tag'), eq(tags.id, r.targetId)))
    .leftJoin(authors, and(eq(r.kind, 'author'), eq(authors.id, r.targetId)))
    .leftJoin(pages, and(eq(r.kind, 'page'), eq(pages.id, r.targetId), eq(pages.status, 1)))
    .where(where)
    .orderBy(r.fromPath)
    .all(filter ? { shards: JSON.stringify(filter.shards) } : undefined)
  return rows.map((row) => {
    const list = (scope: ListScope): string => urlPathOf({ kind: 'page.list', language: row.language, scope, page: 1 })
    const slugged = (kind: 'category' | 'tag' | 'author', slug: string | null) => (slug === null ? null : list({ kind, slug }))
    const to = ((): string | null => {
      switch (row.kind) {
        case 'post':
          return row.post === null ? null : urlPathOf({ kind: 'page.post', language: row.postLanguage!, slug: row.post })
        case 'page':
          return row.page === null ? null : urlPathOf({ kind: 'page.standalone', language: row.pageLanguage!, slug: row.page })
        case 'category':
          return slugged('category', row.category)
        case 'tag':
          return slugged('tag', row.tag)
        case 'author':
          return slugged('author', row.author)
        case 'feed':
          return urlPathOf({ kind: 'page.feed', language: row.language, scope: { kind: 'home' }, format: 'rss' })
        case 'home':
          return list({ kind: 'home' })
      }
    })()
    return { from: row.from, shard: row.shard, to }
  })
}

/** Every stored redirect whose thing is public, oldest path first, for `cli redirects export`. */
export const redirectMap = (db: Queryable): { from: string; to: string }[] =>
  resolveRedirects(db).flatMap(({ from, to }) => (to ? [{ from, to }] : []))
