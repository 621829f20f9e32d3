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

/**
 * Keeps the post as this save left it, unless the save changed no editable field; then drops the
 * revisions beyond the newest `keep` of the post (REVISIONS_KEEP).
 */
export function recordRevision(
  tx: Queryable,
  caller: Caller,
  before: RevisionFields | null,
  after: PostRow,
  tagIds: readonly number[],
  keep: number,
): void {
  const fields = revisionFieldsOf(after, tagIds)
  const changed = changedFields(before, fields)
  if (!changed.length) return
  tx.insert(postRevisions)
    .values({
      postId: after.id,
      version: after.version,
      fields,
      changedFields: changed,
      tokenName: caller.name,
      seoScore: after.seoScore,
      aeoScore: after.aeoScore,
      createdAt: after.updatedAt,
    })
    .run()
  const oldest = tx
    .select({ version: postRevisions.version })
    .from(postRevisions)
    .where(eq(postRevisions.postId, after.id))
    .orderBy(desc(postRevisions.version))
    .limit(1)
    .offset(keep)
    .get()
  if (oldest)
    tx.delete(postRevisions)
      .where(and(eq(postRevisions.postId, after.id), lte(postRevisions.version, oldest.version)))
      .run()
}
