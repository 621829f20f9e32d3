import type { Language } from '../../../shared/language.ts'
import type { PublicCommentRes } from '../../engagement/model.ts'
import { readableDate } from './words.ts'

/** Indentation stops here: a reply chain of any length stays readable on a phone. */
const MAX_DEPTH = 4

/** Each comment's depth in the thread, from the threaded order (a reply right after its parent). */
function depths(comments: readonly PublicCommentRes[]): number[] {
  const depthOf = new Map<number, number>()
  return comments.map((c) => {
    const depth = c.parentId === null ? 0 : (depthOf.get(c.parentId) ?? -1) + 1
    depthOf.set(c.id, depth)
    return depth
  })
}

/**
 * The approved comments as the page is built with them (engage.js refreshes the same list):
 * one flat list in thread order, replies indented by depth, each with its author and date.
 */
export function CommentList({ comments, language }: { comments: readonly PublicCommentRes[]; language: Language }) {
  const levels = depths(comments)
  return (
    <ol class="comments">
      {comments.map((c, i) => (
        <li class={`depth-${Math.min(levels[i]!, MAX_DEPTH)}`} id={`comment-${c.id}`}>
          <p class="who">
            {c.authorName} · <time dateTime={c.createTime.replace(' ', 'T') + 'Z'}>{readableDate(c.createTime, language)}</time>
          </p>
          <p>{c.content}</p>
        </li>
      ))}
    </ol>
  )
}
