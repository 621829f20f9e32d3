import type { comments } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import type { CommentRes, PublicCommentRes } from './model.ts'

export type CommentRow = typeof comments.$inferSelect

const STATUS_TEXT: Record<Language, readonly string[]> = {
  en: ['Pending', 'Approved', 'Rejected'],
  zh: ['待审核', '已通过', '已拒绝'],
}

/** The label of a comment status in the post's language (spec §2.9 `statusText`). */
export const statusText = (status: number, language: Language): string => STATUS_TEXT[language][status] ?? String(status)

/**
 * The one way a comment leaves through a public endpoint: an allow-list, so a column added
 * later (or the email, IP, user agent, spam reason) can never leak by being spread along.
 */
export const toPublicComment = (row: CommentRow, language: Language): PublicCommentRes => ({
  id: row.id,
  postId: row.postId,
  parentId: row.parentId,
  authorName: row.authorName,
  content: row.content,
  createTime: row.createdAt,
  status: row.status,
  statusText: statusText(row.status, language),
})

export const toCommentRes = (row: CommentRow, post: { title: string; language: Language }): CommentRes => ({
  ...toPublicComment(row, post.language),
  postTitle: post.title,
  authorEmail: row.authorEmail,
  spamReason: row.spamReason,
  ip: row.ip,
  userAgent: row.userAgent,
  moderateTime: row.moderatedAt,
  updateTime: row.updatedAt,
})

/**
 * Threaded order (spec §2.9): each comment followed by its replies, depth first, siblings
 * oldest first. A reply whose parent is not in `rows` has no place in the thread and is left out,
 * which moderation prevents anyway by rejecting a comment together with its replies.
 */
export function threaded<T extends { id: number; parentId: number | null; createdAt: string }>(rows: readonly T[]): T[] {
  const byAge = [...rows].sort((a, b) => (a.createdAt === b.createdAt ? a.id - b.id : a.createdAt < b.createdAt ? -1 : 1))
  const children = new Map<number | null, T[]>()
  for (const row of byAge) {
    const siblings = children.get(row.parentId)
    if (siblings) siblings.push(row)
    else children.set(row.parentId, [row])
  }
  // Depth first without recursion, so a long reply chain cannot exhaust the stack.
  const ordered: T[] = []
  const stack = [...(children.get(null) ?? [])].reverse()
  for (let row = stack.pop(); row; row = stack.pop()) {
    ordered.push(row)
    stack.push(...[...(children.get(row.id) ?? [])].reverse())
  }
  return ordered
}
