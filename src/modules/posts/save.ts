import { and, eq, inArray } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { authors, categories, posts, tags } from '../../db/schema/index.ts'
import { Forbidden, invalidField } from '../../shared/errors.ts'
import { RESERVED_POST_SLUGS } from '../../shared/slug.ts'
import { formatTime, parseTime } from '../../shared/time.ts'
import { checkLink, checkMediaShape } from '../../shared/url-rule.ts'
import { requireResources } from '../resources/catalogue.ts'
import { suggestSlug } from '../seo/index.ts'
import type { SeoInput } from '../seo/types.ts'
import { DuplicateSlug } from '../taxonomy/slugs.ts'
import type { Caller } from '../tokens/tokens.ts'
import type { prepareContent } from './content.ts'
import { statusEvent } from './lifecycle.ts'
import type { PostSaveReq, WriterPostRes } from './model.ts'
import { toWriterPostRes } from './present.ts'
import { livePost, recordSlugChange, replaceTags, slugHolder, type PostRow, type PostValues } from './repo.ts'
import { recordRevision, revisionFieldsOf, tagIdsOf } from './revision-store.ts'
import { refuseBlocked, sqliteWorld, writeChecked } from './seo.ts'
import { expectVersion, nextVersion, VersionConflict } from './version.ts'
import { POST_STATUS } from './visibility.ts'
import { publicationTime } from './publication-time.ts'

const blank = (value: string | null | undefined): string => value?.trim() ?? ''
/** The slug suggestion asks nothing about media. */
const NO_MEDIA: ReadonlySet<string> = new Set()

/** URL fields end up in href/src attributes on the public site: the shared URL rule decides what gets in. */
function checkUrlFields(req: PostSaveReq, siteUrl: string): void {
  checkLink('canonicalUrl', req.canonicalUrl)
  checkMediaShape('coverImage', req.coverImage, siteUrl)
  checkMediaShape('ogImage', req.ogImage, siteUrl)
}

function normalizeReviewedAt(value: string | null | undefined): string | null {
  if (!blank(value)) return null
  const date = parseTime(value)
  if (!date) throw invalidField('reviewedAt', 'expected a time like 2026-03-01 10:00:00')
  return formatTime(date)
}

/** `relatedProductIds` is a comma-separated list of resource ids (spec §2.2). */
function normalizeProductIds(value: string | null | undefined): string {
  const ids = blank(value)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  if (ids.some((id) => !/^[1-9]\d{0,15}$/.test(id))) throw invalidField('relatedProductIds', 'expected comma-separated resource ids')
  return [...new Set(ids)].join(',')
}

function checkReferences(db: Queryable, req: PostSaveReq, tagIds: readonly number[]): void {
  if (!db.select({ id: categories.id }).from(categories).where(eq(categories.id, req.categoryId)).get()) {
    throw invalidField('categoryId', `no category ${req.categoryId}`)
  }
  if (req.authorId && !db.select({ id: authors.id }).from(authors).where(eq(authors.id, req.authorId)).get()) {
    throw invalidField('authorId', `no author ${req.authorId}`)
  }
  if (tagIds.length) {
    const found = new Set(
      db
        .select({ id: tags.id })
        .from(tags)
        .where(inArray(tags.id, [...tagIds]))
        .all()
        .map((t) => t.id),
    )
    const unknown = tagIds.filter((id) => !found.has(id))
    if (unknown.length) throw invalidField('tagIds', `no tag(s) ${unknown.join(', ')}`)
  }
}

/** The stored post this save produces, before its slug is settled. Absent optional fields keep their stored value. */
function mergeFields(
  req: PostSaveReq,
  content: ReturnType<typeof prepareContent>,
  existing: PostRow | null,
  status: number,
): Omit<PostValues, 'slug'> {
  const keep = <K extends keyof PostRow>(key: K, fallback: PostRow[K]): PostRow[K] => (existing ? existing[key] : fallback)
  const text = (key: keyof PostSaveReq & keyof PostRow, value: string | null | undefined) =>
    value === undefined ? (keep(key, '' as never) as string) : blank(value)
  return {
    language: req.language,
    title: req.title.trim(),
    ...content,
    categoryId: req.categoryId,
    authorId: req.authorId === undefined ? keep('authorId', null) : req.authorId,
    alternateSlug: text('alternateSlug', req.alternateSlug),
    summary: text('summary', req.summary),
    coverImage: text('coverImage', req.coverImage),
    coverAlt: text('coverAlt', req.coverAlt),
    author: text('author', req.author),
    seoTitle: text('seoTitle', req.seoTitle),
    seoDescription: text('seoDescription', req.seoDescription),
    canonicalUrl: text('canonicalUrl', req.canonicalUrl),
    robots: text('robots', req.robots),
    ogTitle: text('ogTitle', req.ogTitle),
    ogDescription: text('ogDescription', req.ogDescription),
    ogImage: text('ogImage', req.ogImage),
    answerSummary: text('answerSummary', req.answerSummary),
    indexable: req.indexable ?? keep('indexable', true),
    keyTakeaways: req.keyTakeaways ? req.keyTakeaways.map((s) => s.trim()) : keep('keyTakeaways', []),
    faqBlocks: req.faqBlocks
      ? req.faqBlocks.map((b, i) => ({ question: b.question.trim(), answer: b.answer.trim(), sortOrder: b.sortOrder ?? i + 1 }))
      : keep('faqBlocks', []),
    relatedProductIds: req.relatedProductIds === undefined ? keep('relatedProductIds', '') : normalizeProductIds(req.relatedProductIds),
    reviewedAt: req.reviewedAt === undefined ? keep('reviewedAt', null) : normalizeReviewedAt(req.reviewedAt),
    status,
  }
}

const seoInput = (id: number | null, values: Omit<PostValues, 'slug'>, slug: string): SeoInput => ({ ...values, id, slug })

/**
 * `POST posts/save` (spec §3.1): creates a draft or updates a post to the status sent (absent:
 * the stored one). Publishing through save needs `blog:publish` and passes the SEO gate; every
 * save stores the latest seoScore/aeoScore, moves the post to its next version and keeps a
 * revision when an editable field changed. `version` (or If-Match) makes the update conditional.
 */
export async function savePost(ctx: Ctx, caller: Caller, req: PostSaveReq): Promise<WriterPostRes> {
  checkUrlFields(req, ctx.config.siteUrl)
  const expected = req.version ?? null
  if (expected !== null && !req.id) throw invalidField('version', 'only an update (with id) is based on a version (If-Match or version)')
  const content = await ctx.seo.run('storedBody', req)
  const existing = req.id ? livePost(ctx.db, req.id) : null
  if (existing) expectVersion(existing, expected)
  const status = req.status ?? existing?.status ?? POST_STATUS.draft
  if (status === POST_STATUS.published && !caller.scopes.has('blog:publish')) throw new Forbidden('blog:publish')
  const tagIds = [...new Set(req.tagIds ?? [])]
  const requestedSlug = blank(req.slug)
  if (RESERVED_POST_SLUGS.has(requestedSlug.toLowerCase()))
    throw invalidField('slug', `"${requestedSlug}" is a fixed API path; choose another slug`)

  // What this save stores, read before the write lock (for the SEO check) and again inside it.
  const plan = (db: Queryable) => {
    const before = req.id ? livePost(db, req.id) : null
    // A stale version is told apart before any other finding (a 412, not a 400 about the slug).
    if (before) expectVersion(before, expected)
    // Merged from the row read under the write lock, so a concurrent edit of a field this
    // request did not send is kept, not overwritten with what was read before the lock.
    const values = mergeFields(req, content, before, status)
    checkReferences(db, req, tagIds)
    requireResources(db, values.relatedProductIds)
    const id = before?.id ?? null
    const slug = requestedSlug || before?.slug || suggestSlug(seoInput(id, values, ''), sqliteWorld(ctx, db, NO_MEDIA))
    return { before, values, id, slug, input: seoInput(id, values, slug) }
  }

  const { result } = await writeChecked(ctx, plan, (tx, record, { before, values, id, slug }, checked) => {
    const seo = status === POST_STATUS.published ? refuseBlocked(checked) : checked
    const holder = slugHolder(tx, values.language, slug, id)
    if (holder) throw new DuplicateSlug(slug)

    const now = formatTime(ctx.clock())
    const row = {
      ...values,
      slug,
      toc: seo.toc,
      seoScore: seo.score,
      aeoScore: seo.aeoScore,
      updatedAt: now,
      publishedAt: before?.publishedAt ?? (status === POST_STATUS.published ? publicationTime(tx, now) : null),
    }
    const beforeRevision = before && { row: before, fields: revisionFieldsOf(before, tagIdsOf(tx, before.id)) }
    const after = before
      ? updateVersion(tx, before, expected ?? before.version, row)
      : tx
          .insert(posts)
          .values({ ...row, createdAt: now })
          .returning()
          .get()
    if (req.tagIds !== undefined || !before) replaceTags(tx, after.id, tagIds)
    if (before) recordSlugChange(tx, before, after)
    recordRevision(tx, caller, beforeRevision, after, tagIdsOf(tx, after.id), ctx.config.revisionsKeep)
    record({ kind: 'post', event: statusEvent(before, after), before, after })
    return after
  })
  return toWriterPostRes(ctx.db, result)
}

/** The update of a stored post, only if it still is at `version` (the SQL side of If-Match). */
function updateVersion(tx: Queryable, before: PostRow, version: number, row: Partial<PostValues>): PostRow {
  const after = tx
    .update(posts)
    .set({ ...row, ...nextVersion })
    .where(and(eq(posts.id, before.id), eq(posts.version, version)))
    .returning()
    .get()
  if (!after) throw new VersionConflict(before, version)
  return after
}
