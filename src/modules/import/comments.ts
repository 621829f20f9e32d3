import { eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { comments } from '../../db/schema/index.ts'
import { formatTime, parseTime } from '../../shared/time.ts'
import { COMMENT_STATUS } from '../engagement/terms.ts'
import { recountComments } from '../engagement/repo.ts'
import { digestOf, knownItem, rememberItem } from './ids.ts'
import { insertReturningId } from './inserts.ts'
import type { ImportComment } from './model.ts'
import type { Counts } from './report.ts'

/** Comments longer than this are cut: the API's own limit for a reader's comment is far below. */
const MAX_COMMENT = 20_000

/**
 * Parents before their replies, each reply after the parent it names (one pass over a map, so a
 * long thread costs linear time); a reply whose parent is missing (spam, trash) becomes top-level.
 */
function threadOrder(list: readonly ImportComment[]): ImportComment[] {
  const byId = new Map(list.map((c) => [c.sourceId, c]))
  const children = new Map<string, ImportComment[]>()
  const roots: ImportComment[] = []
  for (const c of list) {
    if (c.parent && byId.has(c.parent) && c.parent !== c.sourceId) children.set(c.parent, [...(children.get(c.parent) ?? []), c])
    else roots.push(c)
  }
  const ordered: ImportComment[] = []
  const stack = [...roots].reverse()
  const seen = new Set<string>()
  while (stack.length) {
    const c = stack.pop()!
    if (seen.has(c.sourceId)) continue
    seen.add(c.sourceId)
    ordered.push(c)
    stack.push(...(children.get(c.sourceId) ?? []).reverse())
  }
  // A cycle of replies (a hostile file) has no root: they come last, top-level.
  for (const c of list) if (!seen.has(c.sourceId)) ordered.push({ ...c, parent: null })
  return ordered
}

/** Writes a post's comments with their threading and moderation status; known ones are updated, none twice. */
export function writeComments(
  db: Queryable,
  source: string,
  postSourceId: string,
  postId: number,
  list: readonly ImportComment[],
  counts: Counts,
): void {
  const ids = new Map<string, number>()
  // A reply is approved only under an approved parent, as moderation keeps it (docs/engagement.md):
  // otherwise it would be counted in commentCount yet never shown (the thread has no place for it).
  const approved = new Set<string>()
  for (const c of threadOrder(list)) {
    const key = `${postSourceId}:${c.sourceId}`
    const parentId = c.parent ? (ids.get(c.parent) ?? null) : null
    const date = formatTime(parseTime(c.date) ?? new Date())
    const values = {
      postId,
      parentId,
      authorName: c.authorName.trim().slice(0, 200) || 'Anonymous',
      authorEmail: c.authorEmail.trim().slice(0, 320),
      content: c.content.slice(0, MAX_COMMENT),
      status: c.status === 'approved' && (!c.parent || approved.has(c.parent)) ? COMMENT_STATUS.approved : COMMENT_STATUS.pending,
      createdAt: date,
    }
    if (values.status === COMMENT_STATUS.approved) approved.add(c.sourceId)
    const digest = digestOf(values)
    const known = knownItem(db, source, 'comment', key)
    if (known?.digest === digest) {
      counts.unchanged++
      ids.set(c.sourceId, known.targetId)
      continue
    }
    let id: number
    if (known) {
      db.update(comments)
        .set({ ...values, updatedAt: date })
        .where(eq(comments.id, known.targetId))
        .run()
      counts.updated++
      id = known.targetId
    } else {
      id = insertReturningId(db, comments, {
        ...values,
        updatedAt: date,
        moderatedAt: values.status === COMMENT_STATUS.approved ? date : null,
      })
      counts.created++
    }
    rememberItem(db, source, 'comment', key, id, digest)
    ids.set(c.sourceId, id)
  }
  recountComments(db, postId)
}
