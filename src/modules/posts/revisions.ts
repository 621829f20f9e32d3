import { and, count, desc, eq } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { postRevisions } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import { NotFound } from '../../shared/errors.ts'
import type { Caller } from '../tokens/tokens.ts'
import type { PostRes, RevisionDetailRes, RevisionSummaryRes } from './model.ts'
import { livePost } from './repo.ts'
import { changedFields, revisionFieldsOf, tagIdsOf, type RevisionField, type RevisionFields } from './revision-store.ts'
import { savePost } from './save.ts'

type RevisionRow = typeof postRevisions.$inferSelect

/** The answers' schemas (`RevisionSummaryRes`, `RevisionDetailRes` in model.ts) are the contract; these are their types. */
type RevisionSummary = typeof RevisionSummaryRes.static
type RevisionDetail = typeof RevisionDetailRes.static

const summaryOf = (row: RevisionRow): RevisionSummary => {
  const fields = row.fields as RevisionFields
  return {
    postId: row.postId,
    version: row.version,
    createTime: row.createdAt,
    tokenName: row.tokenName,
    seoScore: row.seoScore,
    aeoScore: row.aeoScore,
    changedFields: row.changedFields as RevisionField[],
    title: fields.title,
    status: fields.status,
  }
}

/** `GET /api/admin/blog/posts/{id}/revisions`: newest first. */
export function listRevisions(db: Queryable, postId: number, page: { current: number; size: number }): Page<RevisionSummary> {
  livePost(db, postId)
  const where = eq(postRevisions.postId, postId)
  const total = db.select({ n: count() }).from(postRevisions).where(where).get()?.n ?? 0
  const rows = db
    .select()
    .from(postRevisions)
    .where(where)
    .orderBy(desc(postRevisions.version))
    .limit(page.size)
    .offset((page.current - 1) * page.size)
    .all()
  return { total, size: page.size, current: page.current, records: rows.map(summaryOf) }
}

function revisionRow(db: Queryable, postId: number, version: number): RevisionRow {
  const row = db
    .select()
    .from(postRevisions)
    .where(and(eq(postRevisions.postId, postId), eq(postRevisions.version, version)))
    .get()
  if (!row) throw new NotFound('revision', version, 'rev')
  return row
}

/** `GET .../revisions/{rev}`: the revision, and a field-level diff against the current post. */
export function revisionDetail(db: Queryable, postId: number, version: number): RevisionDetail {
  const post = livePost(db, postId)
  const row = revisionRow(db, postId, version)
  const fields = row.fields as RevisionFields
  const current = revisionFieldsOf(post, tagIdsOf(db, postId))
  const diff = changedFields(fields, current).map((field) => ({ field, revision: fields[field], current: current[field] }))
  return { ...summaryOf(row), fields, currentVersion: post.version, diff }
}

/**
 * `POST .../revisions/{rev}/restore`: saves the revision's fields as a new save (a new version and
 * revision). The status is not restored: a published post stays published, and so must pass the
 * gate with the restored content (else BLOG_SEO_BLOCKED and nothing changes). `expected` is the
 * request's If-Match.
 */
export async function restoreRevision(
  ctx: Ctx,
  caller: Caller,
  postId: number,
  version: number,
  expected: number | null,
): Promise<PostRes> {
  livePost(ctx.db, postId)
  const { status: _status, ...fields } = revisionRow(ctx.db, postId, version).fields as RevisionFields
  return savePost(ctx, caller, { ...fields, id: postId, version: expected })
}
