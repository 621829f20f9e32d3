import { and, eq, isNull } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { authors, categories, importRedirects, posts, tags } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import { urlPathOf, type SiteTarget } from '../site/targets.ts'
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
  const stored = db.select().from(importRedirects).where(eq(importRedirects.fromPath, fromPath)).get()
  if (stored && stored.kind === to.kind && stored.targetId === to.targetId && stored.language === to.language) {
    counts.unchanged++
    return
  }
  if (stored) counts.updated++
  else counts.created++
  db.insert(importRedirects)
    .values({ fromPath, ...to, source })
    .onConflictDoUpdate({ target: importRedirects.fromPath, set: { ...to, source } })
    .run()
}

/** Where a stored redirect points now (a post renamed since follows), or null when its thing is gone or not public. */
export function redirectTarget(db: Queryable, row: typeof importRedirects.$inferSelect): string | null {
  const { kind, targetId, language } = row
  const list = (scope: Extract<SiteTarget, { kind: 'page.list' }>['scope']): string =>
    urlPathOf({ kind: 'page.list', language, scope, page: 1 })
  switch (kind) {
    case 'post': {
      const post = db
        .select({ slug: posts.slug, language: posts.language })
        .from(posts)
        .where(and(eq(posts.id, targetId), eq(posts.status, 1), isNull(posts.deletedAt)))
        .get()
      return post ? urlPathOf({ kind: 'page.post', language: post.language, slug: post.slug }) : null
    }
    case 'category': {
      const found = db.select({ slug: categories.slug }).from(categories).where(eq(categories.id, targetId)).get()
      return found ? list({ kind: 'category', slug: found.slug }) : null
    }
    case 'tag': {
      const found = db.select({ slug: tags.slug }).from(tags).where(eq(tags.id, targetId)).get()
      return found ? list({ kind: 'tag', slug: found.slug }) : null
    }
    case 'author': {
      const found = db.select({ slug: authors.slug }).from(authors).where(eq(authors.id, targetId)).get()
      return found ? list({ kind: 'author', slug: found.slug }) : null
    }
    case 'feed':
      return urlPathOf({ kind: 'page.feed', language, scope: { kind: 'home' }, format: 'rss' })
    case 'home':
      return list({ kind: 'home' })
  }
}

/** The stored redirects to one thing (a post, category, tag or author), by its id. */
export const redirectsTo = (db: Queryable, kind: RedirectKind, targetId: number) =>
  db
    .select()
    .from(importRedirects)
    .where(and(eq(importRedirects.kind, kind), eq(importRedirects.targetId, targetId)))
    .all()

/** Every stored redirect whose thing is public, oldest path first, for `cli redirects export`. */
export function* redirectMap(db: Queryable): Generator<{ from: string; to: string }> {
  for (const row of db.select().from(importRedirects).orderBy(importRedirects.fromPath).all()) {
    const to = redirectTarget(db, row)
    if (to) yield { from: row.fromPath, to }
  }
}
