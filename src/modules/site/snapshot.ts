import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { authors, categories, posts, resources, tags } from '../../db/schema/index.ts'
import { inLanguage, LANGUAGES, type Language } from '../../shared/language.ts'
import { toAuthorRes } from '../authors/authors.ts'
import type { AuthorRes } from '../authors/model.ts'
import type { PostCard, PostRes } from '../posts/model.ts'
import { toPostRes } from '../posts/present.ts'
import { postLists, publicPostDetail, type PostListQuery, type PostLists } from '../posts/public.ts'
import { postByCurrentSlug } from '../posts/repo.ts'
import { discoverable, isDiscoverable } from '../posts/visibility.ts'
import { partnerOf, postShardsOnce, sitemapRowsOnce, type PostShards, type SitemapRows } from '../artifacts/snapshot.ts'
import { imageLookup, type ImageLookup } from '../media/responsive.ts'
import { productLinks } from '../resources/card.ts'
import { RESOURCE_STATUS, type ResourceRes } from '../resources/model.ts'
import { toResourceRes } from '../resources/present.ts'
import { publicationSettings } from '../settings/settings.ts'
import { toCategoryRes } from '../taxonomy/categories.ts'
import type { CategoryRes } from '../taxonomy/model.ts'
import { DomainError } from '../../shared/errors.ts'
import { memo } from '../../shared/memo.ts'
import { pageNavOf, type PageNav } from './page-nav.ts'
import { productTargetOf, SITE_PAGE_SIZE, urlPathOf, type ListScope, type SiteTarget } from './targets.ts'

/**
 * The site's reads: the database turned into plain data for the templates, through the same
 * query and presenter functions the JSON artifacts use, so a page and its JSON never disagree.
 */

/** The publication as every page shows it, in one language. */
export interface Publication {
  siteUrl: string
  language: Language
  name: string
  description: string
  iconUrl: string
  iconAlt: string
  labels: Record<Language, string>
}

export function publicationOf(db: Queryable, siteUrl: string, language: Language): Publication {
  const s = publicationSettings(db)
  const host = new URL(siteUrl).host
  const en = { name: inLanguage('en', s.nameEn, s.nameZh) || host, description: inLanguage('en', s.descriptionEn, s.descriptionZh) }
  const zh = { name: inLanguage('zh', s.nameEn, s.nameZh) || host, description: inLanguage('zh', s.descriptionEn, s.descriptionZh) }
  const own = language === 'zh' ? zh : en
  return {
    siteUrl,
    language,
    name: own.name,
    description: own.description,
    iconUrl: s.iconUrl,
    iconAlt: s.iconAlt,
    labels: { en: s.labelEn || 'English', zh: s.labelZh || '中文' },
  }
}

export interface PostPage {
  post: PostRes
  partner: { language: Language; slug: string } | null
  /** Readable but not listed (noindex): the page exists, with `noindex`, and is never pre-rendered. */
  noindex: boolean
}

/** A pre-rendered post page: discoverable posts only, under their current slug. */
export function postPageOf(db: Queryable, language: Language, slug: string): PostPage | null {
  const row = postByCurrentSlug(db, language, slug)
  if (!row || row.slug !== slug || !isDiscoverable(row)) return null
  return { post: toPostRes(db, row), partner: partnerOf(db, row), noindex: false }
}

/** A post page answered on request: any readable post, or where an old slug moved to. */
export function livePostPageOf(db: Queryable, language: Language, slug: string): PostPage | { movedTo: string } | null {
  try {
    const detail = publicPostDetail(db, slug, language)
    if ('movedTo' in detail) return detail
    const listed = isDiscoverable(postByCurrentSlug(db, language, slug)!)
    const partner = listed ? partnerOf(db, { language, slug: detail.post.slug, alternateSlug: detail.post.alternateSlug }) : null
    return { post: detail.post, partner, noindex: !listed }
  } catch (error) {
    if (error instanceof DomainError) return null
    throw error
  }
}

/** What a scoped list is about: its name and description in the page's language. */
export interface ScopeInfo {
  scope: ListScope
  name: string
  description: string
  author: AuthorRes | null
}

/** A scope found, with the list filter that selects its posts. */
export type FoundScope = ScopeInfo & { filter: Pick<PostListQuery, 'categoryId' | 'tagId' | 'authorId'> }

function scopeInfo(db: Queryable, language: Language, scope: ListScope): FoundScope | null {
  switch (scope.kind) {
    case 'home':
      return { scope, name: '', description: '', author: null, filter: {} }
    case 'category': {
      const row = db
        .select()
        .from(categories)
        .where(and(eq(categories.slug, scope.slug), eq(categories.status, 1)))
        .get()
      if (!row) return null
      const name = inLanguage(language, row.nameEn, row.nameZh)
      return {
        scope,
        name,
        description: inLanguage(language, row.descriptionEn, row.descriptionZh),
        author: null,
        filter: { categoryId: row.id },
      }
    }
    case 'tag': {
      const row = db
        .select()
        .from(tags)
        .where(and(eq(tags.slug, scope.slug), eq(tags.status, 1), inArray(tags.language, ['all', language])))
        .get()
      if (!row) return null
      return {
        scope,
        name: inLanguage(language, row.nameEn, row.nameZh) || row.slug,
        description: '',
        author: null,
        filter: { tagId: row.id },
      }
    }
    case 'author': {
      const row = db
        .select()
        .from(authors)
        .where(and(eq(authors.slug, scope.slug), eq(authors.language, language), eq(authors.status, 1)))
        .get()
      if (!row) return null
      return { scope, name: row.name, description: row.bio, author: toAuthorRes(row, null), filter: { authorId: row.id } }
    }
  }
}

export interface ListPage {
  info: ScopeInfo
  cards: PostCard[]
  page: number
  pages: number
}

/** Page `page` of a list; page 1 exists whenever its scope does, deeper pages only while they hold posts. */
export function listPageOf(reads: SnapshotReads, language: Language, scope: ListScope, page: number): ListPage | null {
  const found = reads.scope(language, scope)
  if (!found) return null
  const { filter, ...info } = found
  const list = reads.lists.page({ language, current: page, size: SITE_PAGE_SIZE, ...filter })
  const pages = Math.max(1, Math.ceil(list.total / SITE_PAGE_SIZE))
  return page > pages ? null : { info, cards: list.records, page, pages }
}

/** Feed items: the newest discoverable posts of a list's scope. */
export const FEED_ITEMS = 20
export function feedOf(reads: SnapshotReads, language: Language, scope: ListScope): { info: ScopeInfo; cards: PostCard[] } | null {
  const found = reads.scope(language, scope)
  if (!found) return null
  const { filter, ...info } = found
  return { info, cards: reads.lists.page({ language, current: 1, size: FEED_ITEMS, ...filter }).records }
}

/**
 * What many artifacts of one read snapshot share, each read once: the post lists (counts, newest
 * rows, cards), the publication in each language, the navigation, the scopes of the site's lists.
 * Renderers stay functions of the snapshot; the memo only spares them reading it twice, so it
 * must never outlive the transaction it was made in.
 */
export interface SnapshotReads {
  lists: PostLists
  publication(language: Language): Publication
  nav(): CategoryRes[]
  /** The standalone pages a language links from its header and footer. */
  pageNav(language: Language): PageNav
  scope(language: Language, scope: ListScope): FoundScope | null
  /** The sitemaps' posts by id range, shared by the API's sitemap and the site's posts shards. */
  sitemapRows: SitemapRows
  /** The posts' shards with their newest change, shared by the API's and the site's sitemap indexes. */
  postShards: PostShards
  /** Our uploads' variants and sizes, for every `<img>` of the snapshot's pages. */
  image: ImageLookup
}

/** `mediaUrl` is MEDIA_URL, whose default is `<SITE_URL>/media`. */
export function snapshotReads(db: Queryable, siteUrl: string, mediaUrl = `${siteUrl}/media`): SnapshotReads {
  const publications = memo<Language, Publication>()
  const navs = memo<'', CategoryRes[]>()
  const pageNavs = memo<Language, PageNav>()
  const scopes = memo<string, FoundScope | null>()
  return {
    lists: postLists(db),
    publication: (language) => publications(language, () => publicationOf(db, siteUrl, language)),
    nav: () => navs('', () => navCategories(db)),
    pageNav: (language) => pageNavs(language, () => pageNavOf(db, language)),
    scope: (language, scope) => scopes(JSON.stringify([language, scope]), () => scopeInfo(db, language, scope)),
    sitemapRows: sitemapRowsOnce(db),
    postShards: postShardsOnce(db),
    image: imageLookup(db, mediaUrl),
  }
}

/** Product pages exist for every resource a card may show (active or out of stock), under the current slug of its name. */
export function productOf(db: Queryable, language: Language, id: number, slug: string): ResourceRes | null {
  const row = db
    .select()
    .from(resources)
    .where(and(eq(resources.id, id), ne(resources.status, RESOURCE_STATUS.offline)))
    .get()
  const wanted = urlPathOf({ kind: 'page.product', language, id, slug })
  return row && productLinks(row.id, row.nameEn, row.nameZh)[language] === wanted ? toResourceRes(row, null) : null
}

/** Every product page, as the target its card's link reads. */
export function productPages(db: Queryable): Extract<SiteTarget, { kind: 'page.product' }>[] {
  const rows = db
    .select({ id: resources.id, nameEn: resources.nameEn, nameZh: resources.nameZh })
    .from(resources)
    .where(ne(resources.status, RESOURCE_STATUS.offline))
    .orderBy(asc(resources.id))
    .all()
  return rows.flatMap((r) => LANGUAGES.map((language) => productTargetOf(productLinks(r.id, r.nameEn, r.nameZh)[language])))
}

/** Every scope with a page 1 in each language, with its row id (0 for home): the home list, enabled categories, tags of the language, enabled authors of it. */
export function listedScopes(db: Queryable, language: Language): { scope: ListScope; id: number }[] {
  const cats = db
    .select({ id: categories.id, slug: categories.slug })
    .from(categories)
    .where(eq(categories.status, 1))
    .orderBy(asc(categories.id))
    .all()
  const tagRows = db
    .select({ id: tags.id, slug: tags.slug })
    .from(tags)
    .where(and(eq(tags.status, 1), inArray(tags.language, ['all', language])))
    .orderBy(asc(tags.id))
    .all()
  const authorRows = db
    .select({ id: authors.id, slug: authors.slug })
    .from(authors)
    .where(and(eq(authors.status, 1), eq(authors.language, language)))
    .orderBy(asc(authors.id))
    .all()
  return [
    { scope: { kind: 'home' }, id: 0 },
    ...cats.map((c) => ({ scope: { kind: 'category', slug: c.slug } as ListScope, id: c.id })),
    ...tagRows.map((t) => ({ scope: { kind: 'tag', slug: t.slug } as ListScope, id: t.id })),
    ...authorRows.map((a) => ({ scope: { kind: 'author', slug: a.slug } as ListScope, id: a.id })),
  ]
}

export const scopesOf = (db: Queryable, language: Language): ListScope[] => listedScopes(db, language).map((s) => s.scope)

/** Enabled categories for the navigation. */
export const navCategories = (db: Queryable): CategoryRes[] =>
  db.select().from(categories).where(eq(categories.status, 1)).orderBy(asc(categories.sort), asc(categories.id)).all().map(toCategoryRes)

const newestStatement = preparedOnce((db) =>
  db
    .select({ slug: posts.slug, title: posts.title, summary: posts.summary })
    .from(posts)
    .where(and(discoverable, eq(posts.language, sql.placeholder('language'))))
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .limit(sql.placeholder('limit'))
    .prepare(),
)

/** The newest discoverable posts of a language, at most `limit`, for llms.txt. */
export const publishedCards = (db: Queryable, language: Language, limit: number): Pick<PostCard, 'slug' | 'title' | 'summary'>[] =>
  newestStatement(db).all({ language, limit })

/** Discoverable post (language, slug) pairs: every pre-rendered post page. */
export const discoverablePosts = (db: Queryable) =>
  db
    .select({ id: posts.id, language: posts.language, slug: posts.slug, alternateSlug: posts.alternateSlug })
    .from(posts)
    .where(discoverable)
    .orderBy(asc(posts.id))
    .all()
