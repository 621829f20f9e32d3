import { and, desc, eq, lte } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { postRevisions, postTags } from '../../db/schema/index.ts'
import type { Caller } from '../tokens/tokens.ts'
import type { PostRow } from './repo.ts'

/** The editable fields a revision keeps (derived ones — contentText, toc, scores — are recomputed on save). */
export const REVISION_FIELDS = [
  'language',
  'title',
  'slug',
  'alternateSlug',
  'contentHtml',
  'categoryId',
  'tagIds',
  'summary',
  'coverImage',
  'coverAlt',
  'authorId',
  'author',
  'seoTitle',
  'seoDescription',
  'canonicalUrl',
  'robots',
  'indexable',
  'ogTitle',
  'ogDescription',
  'ogImage',
  'answerSummary',
  'keyTakeaways',
  'faqBlocks',
  'relatedProductIds',
  'reviewedAt',
  'status',
] as const
export type RevisionField = (typeof REVISION_FIELDS)[number]
export type RevisionFields = Pick<PostRow, Exclude<RevisionField, 'tagIds'>> & { tagIds: number[] }

export const tagIdsOf = (db: Queryable, postId: number): number[] =>
  db
    .select({ id: postTags.tagId })
    .from(postTags)
    .where(eq(postTags.postId, postId))
    .orderBy(postTags.tagId)
    .all()
    .map((row) => row.id)

export function revisionFieldsOf(row: PostRow, tagIds: readonly number[]): RevisionFields {
  const fields = Object.fromEntries(
    REVISION_FIELDS.map((field) => [field, field === 'tagIds' ? [...tagIds].sort((a, b) => a - b) : row[field]]),
  )
  return fields as RevisionFields
}

/** The fields whose values differ (compared as JSON, so lists and FAQ blocks compare by content). */
export const changedFields = (a: RevisionFields | null, b: RevisionFields): RevisionField[] =>
  REVISION_FIELDS.filter((field) => a === null || JSON.stringify(a[field]) !== JSON.stringify(b[field]))

/** A row of post_revisions for `row` as it is now. */
const revisionOf = (row: PostRow, fields: RevisionFields, changedFields: RevisionField[], tokenName: string) => ({
  postId: row.id,
  version: row.version,
  fields,
  changedFields,
  tokenName,
  seoScore: row.seoScore,
  aeoScore: row.aeoScore,
  createdAt: row.updatedAt,
})

/**
 * Keeps the post as this save left it, unless the save changed no editable field; then drops the
 * revisions beyond the newest `keep` of the post (REVISIONS_KEEP). A post saved before revisions
 * existed has none: its state before this save is kept first (no token name known), so that the
 * first edit after an upgrade can be undone too.
 */
export function recordRevision(
  tx: Queryable,
  caller: Caller,
  before: { row: PostRow; fields: RevisionFields } | null,
  after: PostRow,
  tagIds: readonly number[],
  keep: number,
): void {
  const fields = revisionFieldsOf(after, tagIds)
  const changed = changedFields(before?.fields ?? null, fields)
  if (!changed.length) return
  const history = eq(postRevisions.postId, after.id)
  if (before && !tx.select({ id: postRevisions.id }).from(postRevisions).where(history).limit(1).get())
    tx.insert(postRevisions)
      .values(revisionOf(before.row, before.fields, [], ''))
      .run()
  tx.insert(postRevisions)
    .values(revisionOf(after, fields, changed, caller.name))
    .run()
  const oldest = tx
    .select({ version: postRevisions.version })
    .from(postRevisions)
    .where(history)
    .orderBy(desc(postRevisions.version))
    .limit(1)
    .offset(keep)
    .get()
  if (oldest)
    tx.delete(postRevisions)
      .where(and(history, lte(postRevisions.version, oldest.version)))
      .run()
}
