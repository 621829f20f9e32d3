import { and, eq, sql } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/client.ts'
import { pages } from '../../db/schema/index.ts'
import { Forbidden, invalidField } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { checkLink, checkMediaShape } from '../../shared/url-rule.ts'
import { VersionConflict } from '../posts/version.ts'
import { RESERVED_PAGE_SLUGS } from '../site/targets.ts'
import { resolveSlug } from '../taxonomy/slugs.ts'
import type { Caller } from '../tokens/tokens.ts'
import type { PageRes, PageSaveReq } from './model.ts'
import { PAGE_STATUS } from './terms.ts'
import { pageById, slugTaken, toPageRes, type PageRow } from './repo.ts'

const blank = (value: string | null | undefined): string => value?.trim() ?? ''

/** Refuses early when the caller expected another version (If-Match); the conditional UPDATE is the backstop. */
export function expectPageVersion(row: PageRow, expected: number | null): void {
  if (expected !== null && row.version !== expected) throw new VersionConflict(row, expected, 'page')
}

/** The update of a stored page, only if it still is at `version`: every edit or status change moves it on. */
export function updatePage(tx: Tx, before: PageRow, values: Partial<PageRow>): PageRow {
  const after = tx
    .update(pages)
    .set({ ...values, version: sql`${pages.version} + 1` })
    .where(and(eq(pages.id, before.id), eq(pages.version, before.version)))
    .returning()
    .get()
  if (!after) throw new VersionConflict(pageById(tx, before.id), before.version, 'page')
  return after
}

/** A requested slug: the site's slug shape, one path segment none of the site's own paths claim. */
function pageSlug(tx: Tx, req: PageSaveReq, existing: PageRow | null): string {
  const wanted = blank(req.slug).toLowerCase()
  if (RESERVED_PAGE_SLUGS.has(wanted)) throw invalidField('slug', `"${wanted}" is a path the site answers itself; choose another slug`)
  if (!wanted && existing) return existing.slug
  const slug = resolveSlug(wanted, req.title, 'page', (s) => slugTaken(tx, req.language, s, existing?.id ?? null))
  return RESERVED_PAGE_SLUGS.has(slug) ? resolveSlug('', `${slug}-page`, 'page', (s) => slugTaken(tx, req.language, s, null)) : slug
}

function fieldsOf(req: PageSaveReq, content: { contentHtml: string; contentText: string }, existing: PageRow | null) {
  const text = <K extends keyof PageSaveReq & keyof PageRow>(key: K): string =>
    req[key] === undefined ? ((existing?.[key] as string | undefined) ?? '') : blank(req[key] as string | null)
  const alternateSlug = text('alternateSlug').toLowerCase()
  return {
    language: req.language,
    title: req.title.trim(),
    ...content,
    alternateSlug,
    seoTitle: text('seoTitle'),
    seoDescription: text('seoDescription'),
    canonicalUrl: text('canonicalUrl'),
    robots: text('robots'),
    ogTitle: text('ogTitle'),
    ogDescription: text('ogDescription'),
    ogImage: text('ogImage'),
    indexable: req.indexable ?? existing?.indexable ?? true,
    navPlacement: req.navPlacement ?? existing?.navPlacement ?? 'none',
    navOrder: req.navOrder ?? existing?.navOrder ?? 0,
  }
}

/**
 * `POST pages/save` (docs/pages.md): creates a draft (no id) or updates a page; a result that is
 * published needs `blog:publish`. The body goes through the same conversion and sanitizer as a
 * post's (`contentHtml` or `contentMarkdown`, exactly one). `version` or If-Match makes it conditional.
 */
export async function savePage(ctx: Ctx, caller: Caller, req: PageSaveReq & { version: number | null }): Promise<PageRes> {
  checkLink('canonicalUrl', req.canonicalUrl)
  checkMediaShape('ogImage', req.ogImage, ctx.config.siteUrl)
  if (!req.title.trim()) throw invalidField('title', 'must not be blank')
  if (req.version !== null && !req.id) throw invalidField('version', 'only an update (with id) is based on a version (If-Match or version)')
  const alternate = blank(req.alternateSlug)
  if (alternate && !/^[a-z0-9]+(-[a-z0-9]+)*$/i.test(alternate)) throw invalidField('alternateSlug', 'expected a slug')
  const content = await ctx.seo.run('storedBody', req)
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const before = req.id ? pageById(tx, req.id) : null
    if (before) expectPageVersion(before, req.version)
    const status = req.status ?? before?.status ?? PAGE_STATUS.draft
    // As for posts: a save whose result is public (a published page edited too) needs blog:publish.
    if (status === PAGE_STATUS.published && !caller.scopes.has('blog:publish')) throw new Forbidden('blog:publish')
    const now = formatTime(ctx.clock())
    const values = {
      ...fieldsOf(req, content, before),
      slug: pageSlug(tx, req, before?.language === req.language ? before : null),
      status,
      updatedAt: now,
      publishedAt: before?.publishedAt ?? (status === PAGE_STATUS.published ? now : null),
    }
    const after = before
      ? updatePage(tx, before, values)
      : tx
          .insert(pages)
          .values({ ...values, createdAt: now })
          .returning()
          .get()
    record({ kind: 'page', before, after })
    return after
  })
  return toPageRes(result, ctx.config.siteUrl)
}
