import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { pages } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import { otherLanguage, type Language } from '../../shared/language.ts'
import { urlPathOf } from '../site/targets.ts'
import type { PageCardRes, PageRes } from './model.ts'
import { PAGE_STATUS } from './terms.ts'

export type PageRow = typeof pages.$inferSelect

/** Published and not marked `noindex`: in the sitemap, as a post is when listed. */
export const isIndexed = (row: Pick<PageRow, 'status' | 'indexable' | 'robots'>): boolean =>
  row.status === PAGE_STATUS.published && row.indexable && !row.robots.toLowerCase().includes('noindex')

/** Whether a page, as it is, shows in the navigation of every site page in its language. */
export const inNavigation = (row: Pick<PageRow, 'status' | 'navPlacement'> | null): boolean =>
  !!row && row.status === PAGE_STATUS.published && row.navPlacement !== 'none'

export const pagePath = (language: Language, slug: string): string => urlPathOf({ kind: 'page.standalone', language, slug })

export function toPageCardRes(row: PageRow, siteUrl: string): PageCardRes {
  return {
    id: row.id,
    language: row.language,
    slug: row.slug,
    alternateSlug: row.alternateSlug,
    title: row.title,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    canonicalUrl: row.canonicalUrl,
    robots: row.robots,
    indexable: row.indexable,
    ogTitle: row.ogTitle,
    ogDescription: row.ogDescription,
    ogImage: row.ogImage,
    status: row.status,
    navPlacement: row.navPlacement,
    navOrder: row.navOrder,
    version: row.version,
    publishedAt: row.publishedAt,
    createTime: row.createdAt,
    updatedTime: row.updatedAt,
    url: `${siteUrl}${pagePath(row.language, row.slug)}`,
  }
}

export const toPageRes = (row: PageRow, siteUrl: string): PageRes => ({ ...toPageCardRes(row, siteUrl), contentHtml: row.contentHtml })

/** A stored page by id, or the spec's not-found refusal naming `id`. */
export function pageById(db: Queryable, id: number): PageRow {
  const row = db.select().from(pages).where(eq(pages.id, id)).get()
  if (!row) throw new NotFound('page', id)
  return row
}

export const pageBySlug = (db: Queryable, language: Language, slug: string): PageRow | undefined =>
  db
    .select()
    .from(pages)
    .where(and(eq(pages.language, language), eq(pages.slug, slug)))
    .get()

/** Whether another page of the language holds the slug. */
export const slugTaken = (db: Queryable, language: Language, slug: string, id: number | null): boolean =>
  !!db
    .select({ id: pages.id })
    .from(pages)
    .where(and(eq(pages.language, language), eq(pages.slug, slug), ne(pages.id, id ?? 0)))
    .get()

const published = (language?: Language) =>
  language ? and(eq(pages.status, PAGE_STATUS.published), eq(pages.language, language)) : eq(pages.status, PAGE_STATUS.published)

/** Published pages (one language, or both), in navigation order then id. */
export const publishedPages = (db: Queryable, language?: Language): PageRow[] =>
  db.select().from(pages).where(published(language)).orderBy(asc(pages.language), asc(pages.navOrder), asc(pages.id)).all()

/** Every page, drafts too, for writers: newest first. */
export const allPages = (db: Queryable, language?: Language): PageRow[] =>
  db
    .select()
    .from(pages)
    .where(language ? eq(pages.language, language) : undefined)
    .orderBy(sql`${pages.id} desc`)
    .all()

/**
 * The published translation of a page: the other language's page its `alternateSlug` names, else
 * one whose `alternateSlug` names it (the rule posts follow, artifacts/snapshot.ts `partnerOf`).
 */
export function pagePartner(db: Queryable, row: Pick<PageRow, 'language' | 'slug' | 'alternateSlug'>): PageRow | null {
  const language = otherLanguage(row.language)
  const named = row.alternateSlug ? pageBySlug(db, language, row.alternateSlug) : undefined
  if (named?.status === PAGE_STATUS.published) return named
  const naming = db
    .select()
    .from(pages)
    .where(and(published(language), eq(pages.alternateSlug, row.slug)))
    .orderBy(asc(pages.id))
    .get()
  return naming ?? null
}
