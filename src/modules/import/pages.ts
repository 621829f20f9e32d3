import { and, eq, ne } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { pages } from '../../db/schema/index.ts'
import { LIMITS } from '../../http/schema.ts'
import { firstFreeSlug } from '../../shared/slug.ts'
import { formatTime } from '../../shared/time.ts'
import { linkFault, mediaFault } from '../../shared/url-rule.ts'
import { prepareContent } from '../posts/content.ts'
import { RESERVED_PAGE_SLUGS } from '../site/targets.ts'
import { digestOf, knownItem, rememberItem } from './ids.ts'
import { languageOf, type LanguageChoice } from './language.ts'
import type { ImportPage } from './model.ts'
import { cut, urlField } from './posts.ts'
import { addRedirect } from './redirects.ts'
import type { ImportReport } from './report.ts'
import { cleanSlug } from './terms.ts'

/**
 * A source's static page (WordPress `page`, Ghost `pages`, a Markdown file marked as a page) as a
 * standalone page (docs/pages.md): body through the posts' sanitizer, SEO fields where the source
 * has them, published when it was public at the source (pages pass no SEO gate), its old URLs
 * redirected. The source's id is remembered, so a re-run updates the page or skips it unchanged.
 */
export function writePage(
  db: Queryable,
  source: string,
  item: ImportPage,
  language: LanguageChoice,
  siteUrl: string,
  report: ImportReport,
) {
  const counts = report.counts.pages
  const digest = digestOf({ item, language })
  const known = knownItem(db, source, 'page', item.sourceId)
  const stored = known && db.select().from(pages).where(eq(pages.id, known.targetId)).get()
  if (stored && known.digest === digest) {
    counts.unchanged++
    return
  }
  const body = prepareContent(item.html)
  const title = cut(item.title.trim() || item.slug || 'Untitled', LIMITS.title) || 'Untitled'
  const lang = languageOf(language, title, body.contentText)
  const notes: string[] = []
  let base = cleanSlug(item.slug, title) || `page-${cleanSlug(item.sourceId, '') || 'imported'}`
  if (RESERVED_PAGE_SLUGS.has(base)) base = `${base}-page`
  const taken = (slug: string) =>
    !!db
      .select({ id: pages.id })
      .from(pages)
      .where(and(eq(pages.language, lang), eq(pages.slug, slug), ne(pages.id, stored ? stored.id : 0)))
      .get()
  const now = formatTime(new Date())
  const status = item.status === 'published' ? 1 : 0
  const values = {
    language: lang,
    slug: firstFreeSlug(base, taken),
    title,
    ...body,
    seoTitle: cut(item.seo.title, LIMITS.title),
    seoDescription: cut(item.seo.description, LIMITS.shortText),
    canonicalUrl: urlField('canonicalUrl', item.seo.canonical, linkFault, notes),
    robots: item.seo.noindex ? 'noindex' : '',
    indexable: !item.seo.noindex,
    ogTitle: cut(item.seo.ogTitle, LIMITS.shortText),
    ogDescription: cut(item.seo.ogDescription, LIMITS.text),
    ogImage: urlField('ogImage', item.seo.ogImage, (v) => mediaFault(v, siteUrl), notes),
    status,
    updatedAt: now,
    publishedAt: stored?.publishedAt ?? (status ? now : null),
  }
  const row = stored
    ? db
        .update(pages)
        .set({ ...values, version: stored.version + 1 })
        .where(eq(pages.id, stored.id))
        .returning()
        .get()!
    : db
        .insert(pages)
        .values({ ...values, createdAt: now })
        .returning()
        .get()
  if (stored) counts.updated++
  else counts.created++
  rememberItem(db, source, 'page', item.sourceId, row.id, digest)
  for (const path of item.oldPaths)
    addRedirect(db, path, { kind: 'page', targetId: row.id, language: lang }, source, report.counts.redirects)
  report.pages.push({
    sourceId: item.sourceId,
    id: row.id,
    title: row.title,
    slug: row.slug,
    language: lang,
    status: status ? 'published' : 'draft',
    notes,
  })
}
