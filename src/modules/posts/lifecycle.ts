import type { PostEvent } from '../../shared/changes.ts'
import type { PostRow } from './repo.ts'
import { POST_STATUS } from './visibility.ts'

/** The webhook event a status change raises (spec §6): entering or leaving the published state. */
export function statusEvent(before: Pick<PostRow, 'status'> | null, after: Pick<PostRow, 'status'>): PostEvent | null {
  const wasPublished = before?.status === POST_STATUS.published
  const isPublished = after.status === POST_STATUS.published
  if (!wasPublished && isPublished) return 'blog.post.published'
  if (wasPublished && !isPublished) return 'blog.post.unpublished'
  return null
}
