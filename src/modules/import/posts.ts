import { eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { posts } from '../../db/schema/index.ts'
import { LIMITS } from '../../http/schema.ts'
import type { Language } from '../../shared/language.ts'
import { firstFreeSlug, RESERVED_POST_SLUGS } from '../../shared/slug.ts'
import { formatTime, parseTime } from '../../shared/time.ts'
import { linkFault, mediaFault } from '../../shared/url-rule.ts'
import { contentText } from '../seo/content-text.ts'
import { replaceTags, slugHolder, type PostValues } from '../posts/repo.ts'
import { runAutofix } from '../posts/seo.ts'
import { nextVersion } from '../posts/version.ts'
import { POST_STATUS } from '../posts/visibility.ts'
import { writeComments } from './comments.ts'
import { rememberItem } from './ids.ts'
import { insertReturningId } from './inserts.ts'
import { languageOf, type LanguageChoice } from './language.ts'
import type { ImportPost } from './model.ts'
import { addRedirect } from './redirects.ts'
import type { ImportReport, PostReport } from './report.ts'
import { cleanSlug } from './terms.ts'
import { fetchBodyImages, type FetchMedia } from './media-fetch.ts'

export interface PostOptions {
  language: LanguageChoice
  /** `keep`: public at the source stays public; `gate`: a post with a blocking item comes in as a draft. */
  status: 'keep' | 'gate'
  siteUrl: string
  /** `--media fetch`: images downloaded into the media store, their URLs rewritten. */
  fetchMedia?: FetchMedia
}

export interface PostRefs {
  categoryId: number
  tagIds: number[]
  authorId: number | null
}

/** A post checked and fixed off the write lock, ready for its batch's transaction. */
export interface PreparedPost {
  item: ImportPost
  digest: string
  knownId: number | null
  tagIds: number[]
  values: Omit<PostValues, 'slug'> & { slug: string }
  report: PostReport
}

/**
 * Notes kept per post in the report: the report lives until the import ends, so a hostile body
 * with thousands of distinct shortcodes must not make it grow with the file.
 */
const MAX_NOTES = 20
const reportedNotes = (notes: string[]): string[] =>
  notes.length > MAX_NOTES ? [...notes.slice(0, MAX_NOTES), `and ${notes.length - MAX_NOTES} more notes like these`] : notes

export const cut = (text: string, max: number) =>
  (text.length > max ? text.slice(0, text.lastIndexOf(' ', max) > 0 ? text.lastIndexOf(' ', max) : max) : text).trim()
const plain = (html: string, max: number) => cut(contentText(html).replace(/\s+/g, ' '), max)
const timeOf = (value: string | null): string | null => {
  const date = parseTime(value)
  return date ? formatTime(date) : null
}

/** A URL field kept only when the shared URL rule lets it in; otherwise dropped with a note. */
export function urlField(field: string, value: string, fault: (v: string) => string | null, notes: string[]): string {
  const trimmed = value.trim()
  if (!trimmed) return ''
  const problem = trimmed.length > LIMITS.url ? 'too long' : fault(trimmed)
  if (!problem) return trimmed
  notes.push(`${field} dropped (${problem}): ${trimmed.slice(0, 200)}`)
  return ''
}

/**
 * The stored form of an imported post: the body through the sanitizer (the pool's `importedBody`),
 * the SEO check with its autofix rules applied (seo/autofix.ts: slug, SEO title and description,
 * canonical, cover alt), the status the source and `--status` give it.
 */
export async function preparePost(
  ctx: Ctx,
  item: ImportPost,
  refs: PostRefs,
  options: PostOptions,
  known: { id: number; digest: string },
): Promise<PreparedPost> {
  const notes = [...item.notes]
  const fetchMedia = options.fetchMedia
  const fetched = fetchMedia
    ? {
        html: await fetchBodyImages(item.html, fetchMedia, notes),
        cover: item.cover && (await fetchMedia(item.cover, notes)),
        ogImage: item.seo.ogImage && (await fetchMedia(item.seo.ogImage, notes)),
      }
    : { html: item.html, cover: item.cover, ogImage: item.seo.ogImage }
  const coverImage = urlField('coverImage', fetched.cover, (v) => mediaFault(v, options.siteUrl), notes)
  const ogImage = urlField('ogImage', fetched.ogImage, (v) => mediaFault(v, options.siteUrl), notes)
  const canonicalUrl = urlField('canonicalUrl', item.seo.canonical, linkFault, notes)
  const body = await ctx.seo.run('importedBody', {
    contentHtml: fetched.html,
    images: { coverImage, ogImage },
    mediaUrl: ctx.config.mediaUrl,
  })
  const language: Language = languageOf(options.language, item.title, body.contentText)
  const title = cut(item.title.replace(/\s+/g, ' '), LIMITS.title) || `Untitled ${item.sourceId}`
  let slug = cleanSlug(item.slug, title) || `post-${cleanSlug(item.sourceId, '') || 'imported'}`
  if (RESERVED_POST_SLUGS.has(slug)) slug = `${slug}-post`
  const seo = item.seo
  const input = {
    id: known.id || null,
    language,
    title,
    contentHtml: body.contentHtml,
    categoryId: refs.categoryId,
    authorId: refs.authorId,
    slug,
    summary: plain(item.excerpt, LIMITS.shortText),
    coverImage,
    coverAlt: cut(item.coverAlt, LIMITS.shortText),
    ogImage,
    seoTitle: cut(seo.title, LIMITS.title),
    seoDescription: cut(seo.description, LIMITS.shortText),
    canonicalUrl,
    robots: seo.noindex ? 'noindex' : '',
    indexable: !seo.noindex,
  }
  const fixed = await runAutofix(ctx, input, body.mediaKeys)
  const blocking = fixed.result.items.filter((i) => i.blocking && !i.passed).map((i) => i.code)
  const public_ = item.status === 'published' && !(options.status === 'gate' && blocking.length)
  if (item.status === 'scheduled') notes.push('scheduled at the source: imported as a draft, schedule it again')
  if (item.status === 'private') notes.push('private at the source: imported as a draft')
  const status = public_ ? POST_STATUS.published : POST_STATUS.draft
  const date = timeOf(item.publishedAt)
  const values = {
    ...fixed.input,
    id: undefined,
    slug: fixed.input.slug ?? slug,
    title,
    contentHtml: body.contentHtml,
    contentText: body.contentText,
    summary: input.summary,
    ogTitle: cut(seo.ogTitle, LIMITS.title),
    ogDescription: cut(seo.ogDescription, LIMITS.shortText),
    seoTitle: fixed.input.seoTitle ?? '',
    seoDescription: fixed.input.seoDescription ?? '',
    canonicalUrl: fixed.input.canonicalUrl ?? '',
    coverAlt: fixed.input.coverAlt ?? '',
    coverImage: input.coverImage,
    ogImage: input.ogImage,
    robots: input.robots,
    indexable: input.indexable,
    categoryId: refs.categoryId,
    authorId: refs.authorId,
    author: '',
    toc: fixed.result.toc,
    seoScore: fixed.result.score,
    aeoScore: fixed.result.aeoScore,
    status,
    // A post never public here has no publish time yet; a public one keeps the source's.
    publishedAt: status === POST_STATUS.published ? (date ?? formatTime(ctx.clock())) : null,
    createdAt: date ?? formatTime(ctx.clock()),
    updatedAt: timeOf(item.updatedAt) ?? date ?? formatTime(ctx.clock()),
  } as PreparedPost['values']
  delete (values as { id?: unknown }).id
  return {
    item,
    digest: known.digest,
    knownId: known.id || null,
    tagIds: refs.tagIds,
    values,
    report: {
      sourceId: item.sourceId,
      id: known.id || null,
      title,
      slug: values.slug,
      language,
      status: public_ ? 'published' : 'draft',
      sourceStatus: item.status,
      seoScore: fixed.result.score,
      aeoScore: fixed.result.aeoScore,
      fixed: fixed.applied,
      blocking,
      notes: reportedNotes(notes),
    },
  }
}

/** Writes one prepared post, its tags, comments and old URLs, inside its batch's transaction. */
export function writePost(db: Queryable, source: string, prepared: PreparedPost, report: ImportReport): void {
  const { item, values, knownId } = prepared
  const exists = knownId !== null && db.select({ id: posts.id }).from(posts).where(eq(posts.id, knownId)).get()
  const id = exists ? knownId : null
  // The slug is settled here, against what earlier batches wrote: a clash takes the next free `-2`.
  const slug = firstFreeSlug(values.slug, (s) => !!slugHolder(db, values.language, s, id))
  const row = { ...values, slug }
  const stored = id
    ? db
        .update(posts)
        .set({ ...row, ...nextVersion })
        .where(eq(posts.id, id))
        .returning({ id: posts.id })
        .get()!
    : { id: insertReturningId(db, posts, row) }
  report.counts.posts[id ? 'updated' : 'created']++
  replaceTags(db, stored.id, prepared.tagIds)
  writeComments(db, source, item.sourceId, stored.id, item.comments, report.counts.comments)
  for (const path of item.oldPaths)
    addRedirect(db, path, { kind: 'post', targetId: stored.id, language: values.language }, source, report.counts.redirects)
  rememberItem(db, source, 'post', item.sourceId, stored.id, prepared.digest)
  report.posts.push({ ...prepared.report, id: stored.id, slug })
}
