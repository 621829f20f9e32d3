import type { ChangeListener, PostEvent } from '../../shared/changes.ts'
import type { Logger } from '../../shared/log.ts'

const MESSAGES: Record<PostEvent, string> = {
  'blog.post.published': 'post published',
  'blog.post.unpublished': 'post unpublished',
  'blog.post.deleted': 'post deleted',
  'blog.post.schedule_failed': 'scheduled publish blocked by the SEO gate',
}

/** One info line per publish, unpublish and delete, after it committed: what an operator greps for. */
export const postEventLog = (log: Logger): ChangeListener => ({
  async afterCommit(change) {
    if (change.kind !== 'post' || !change.event) return
    const post = change.after
    log.info(MESSAGES[change.event], { postId: post.id, slug: post.slug, language: post.language })
  },
})
