import { eq, inArray, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { authors, categories, posts, tags } from '../../db/schema/index.ts'
import { LANGUAGES, otherLanguage, type Language } from '../../shared/language.ts'
import type { Target } from '../artifacts/paths.ts'
import type { PostState } from '../artifacts/plan.ts'
import { partnersOf, postShards } from '../artifacts/snapshot.ts'
import { ASSETS, type AssetName } from './assets.ts'
import { discoverablePosts, productPages, scopesOf } from './snapshot.ts'
import { pagesShards, pagesShardsOf, type PageRowKind } from './sitemap.ts'
import { SITE_PAGES, type FeedFormat, type ListScope, type SiteTarget } from './targets.ts'
import { everyStandaloneTarget } from './standalone.tsx'
import { inNavigation, type PageRow } from '../pages/repo.ts'

/**
 * Which site artifacts a change touches. The site follows the JSON artifacts: every JSON target
 * a change's footprint names maps to the pages that show the same data (a post detail to its
 * page and Markdown twin, a filtered list to the category/tag/author page and its feeds, the
 * RSS feed to the language's feeds and llms.txt, a sitemap shard to the site's shard), plus the
 * pages only the site has (the translated partner's page, whose hreflang names the post).
 */

const FORMATS: FeedFormat[] = ['rss', 'atom', 'json']
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

const scopePages = (language: Language, scope: ListScope, pages: number): SiteTarget[] => [
  ...range(pages).map((page): SiteTarget => ({ kind: 'page.list', language, scope, page })),
  ...FORMATS.map((format): SiteTarget => ({ kind: 'page.feed', language, scope, format })),
]

/** The scope lookups of a list's first page, compiled once per connection. */
const scopeStatements = preparedOnce((db) => {
  const byId = sql.placeholder('id')
  return {
    category: db.select({ slug: categories.slug }).from(categories).where(eq(categories.id, byId)).prepare(),
    tag: db.select({ slug: tags.slug }).from(tags).where(eq(tags.id, byId)).prepare(),
    author: db.select({ slug: authors.slug, language: authors.language }).from(authors).where(eq(authors.id, byId)).prepare(),
  }
})

function scopeOfFilter(db: Queryable, language: Language, filter: Extract<Target, { kind: 'posts' }>['filter']): ListScope | null {
  if (!filter) return { kind: 'home' }
  const statements = scopeStatements(db)
  if ('categoryId' in filter) {
    const slug = statements.category.get({ id: filter.categoryId })?.slug
    return slug ? { kind: 'category', slug } : null
  }
  if ('tagId' in filter) {
    const slug = statements.tag.get({ id: filter.tagId })?.slug
    return slug ? { kind: 'tag', slug } : null
  }
  const author = statements.author.get({ id: filter.authorId })
  return author && author.language === language ? { kind: 'author', slug: author.slug } : null
}

/** The site artifacts showing what these JSON artifacts show. */
export function siteTargetsFor(db: Queryable, targets: readonly Target[]): SiteTarget[] {
  const site: SiteTarget[] = []
  for (const t of targets) {
    switch (t.kind) {
      case 'post':
        site.push({ kind: 'page.post', language: t.language, slug: t.slug }, { kind: 'page.twin', language: t.language, slug: t.slug })
        break
      case 'posts': {
        const scope = t.language && t.page === 1 ? scopeOfFilter(db, t.language, t.filter) : null
        if (t.language && !t.filter && t.page <= SITE_PAGES.home)
          site.push({ kind: 'page.list', language: t.language, scope: { kind: 'home' }, page: t.page })
        if (t.language && scope) site.push(...scopePages(t.language, scope, scope.kind === 'home' ? 0 : SITE_PAGES.scoped))
        break
      }
      case 'author':
        site.push(...scopePages(t.language, { kind: 'author', slug: t.slug }, SITE_PAGES.scoped))
        break
      case 'rss':
        site.push({ kind: 'page.llms' }, ...scopePages(t.language, { kind: 'home' }, 0))
        break
      case 'sitemap':
        site.push({ kind: 'page.sitemap' })
        break
      case 'sitemapShard':
        site.push({ kind: 'page.sitemapPosts', shard: t.shard })
        break
      default:
        break
    }
  }
  return site
}

/** The pages of the posts a post pairs with: their hreflang and language switch name it. */
export function partnerPages(db: Queryable, state: PostState): SiteTarget[] {
  const ids = partnersOf(db, state)
  if (!ids.length) return []
  return db
    .select({ slug: posts.slug })
    .from(posts)
    .where(inArray(posts.id, ids))
    .all()
    .map((r): SiteTarget => ({ kind: 'page.post', language: otherLanguage(state.language), slug: r.slug }))
}

/**
 * The pages sitemap shards listing a row's pages, and the index, which lists a shard only while
 * it holds a page: an emptied shard goes, a new one is listed (as a post's shard and the index).
 */
export const pagesSitemapTargets = (kind: PageRowKind, ids: readonly number[], shardSize: number): SiteTarget[] => [
  { kind: 'page.sitemap' },
  ...ids.flatMap((id) => pagesShardsOf(kind, id, shardSize)),
]

/** Product pages of these resources (both languages, current names) and the sitemap shards listing them. */
export function productTargets(db: Queryable, ids: readonly number[], shardSize: number): SiteTarget[] {
  const wanted = new Set(ids)
  return [...productPages(db).filter((p) => wanted.has(p.id)), ...pagesSitemapTargets('product', ids, shardSize)]
}

/** Every site artifact the database calls for now: what a full rebuild renders. */
export function everySiteTarget(db: Queryable, shardSize: number): SiteTarget[] {
  const targets: SiteTarget[] = [
    { kind: 'page.root' },
    { kind: 'page.robots' },
    { kind: 'page.llms' },
    { kind: 'page.sitemap' },
    ...pagesShards(db, shardSize),
    ...(Object.keys(ASSETS) as AssetName[]).map((name): SiteTarget => ({ kind: 'page.asset', name })),
    ...postShards(db, shardSize).map((s): SiteTarget => ({ kind: 'page.sitemapPosts', shard: s.shard })),
    ...productPages(db),
    ...everyStandaloneTarget(db),
  ]
  for (const p of discoverablePosts(db))
    targets.push({ kind: 'page.post', language: p.language, slug: p.slug }, { kind: 'page.twin', language: p.language, slug: p.slug })
  for (const language of LANGUAGES)
    for (const scope of scopesOf(db, language))
      targets.push(...scopePages(language, scope, scope.kind === 'home' ? SITE_PAGES.home : SITE_PAGES.scoped))
  return targets
}

/**
 * What a standalone page's change touches: every page's artifacts (a handful; the translation's
 * hreflang and the pages sitemap name this one) and where it was before, the sitemap index; and,
 * when it shows or showed in the navigation, every site page, since each one links it.
 */
export function standaloneChangeTargets(db: Queryable, before: PageRow | null, after: PageRow | null, shardSize: number): SiteTarget[] {
  const old: SiteTarget[] = before
    ? [
        { kind: 'page.standalone', language: before.language, slug: before.slug },
        { kind: 'page.standaloneTwin', language: before.language, slug: before.slug },
      ]
    : []
  const nav = inNavigation(before) || inNavigation(after) ? everySiteTarget(db, shardSize) : []
  return [...old, ...everyStandaloneTarget(db), { kind: 'page.sitemap' }, ...nav]
}
