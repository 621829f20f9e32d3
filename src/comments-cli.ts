import { options, positiveId, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import type { compose } from './main.ts'
import { COMMENT_STATUS, type CommentStatus } from './modules/engagement/terms.ts'
import { listComments, moderateComment } from './modules/engagement/moderation.ts'

type Service = Awaited<ReturnType<typeof compose>>

const STATUSES: Record<string, CommentStatus> = {
  pending: COMMENT_STATUS.pending,
  approved: COMMENT_STATUS.approved,
  rejected: COMMENT_STATUS.rejected,
}

/** A comment's text on one line of a listing: control characters (a newline, an escape) shown as spaces. */
const oneLine = (text: string, max: number) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, max)

/** `cli comments list|approve|reject` (docs/admin.md): the moderation queue for scripts, through the console's verbs. */
export const commentListing: Record<string, CliCommand<CliService>> = {
  'comments list': ({ ctx }, args) => {
    const { values } = options(args, { status: { type: 'string' }, page: { type: 'string' } })
    const status = values.status ?? 'pending'
    if (status !== 'all' && !(status in STATUSES)) throw new UsageError('--status must be pending, approved, rejected or all')
    if (values.page !== undefined && !/^[1-9]\d{0,5}$/.test(values.page))
      throw new UsageError(`--page must be a whole number from 1, got "${values.page}"`)
    const page = listComments(ctx.db, { status: STATUSES[status], current: Number(values.page ?? 1), size: 100 })
    console.log(['id', 'status', 'post', 'name', 'email', 'ip', 'spam reason', 'created', 'text'].join('\t'))
    for (const c of page.records)
      console.log(
        [
          c.id,
          c.statusText,
          c.postId,
          oneLine(c.authorName, 60),
          c.authorEmail,
          c.ip,
          c.spamReason,
          c.createTime,
          oneLine(c.content, 200),
        ].join('\t'),
      )
    console.error(`page ${page.current}: ${page.records.length} of ${page.total} comments`)
  },
}

/** The moderation verbs announce their change: they run over the whole service, so the affected pages re-render. */
export const commentCommands: Record<string, CliCommand<Service>> = {
  'comments approve': async ({ ctx }, args) => {
    const comment = await moderateComment(ctx, positiveId(args[0]), { action: 'approve' })
    console.log(`approved comment ${comment.id} on post ${comment.postId}`)
  },
  'comments reject': async ({ ctx }, args) => {
    const { values, positionals } = options(args, { spam: { type: 'boolean' } })
    const comment = await moderateComment(ctx, positiveId(positionals[0]), { action: values.spam ? 'spam' : 'reject' })
    console.log(`rejected comment ${comment.id} on post ${comment.postId}${values.spam ? ' as spam' : ''}`)
  },
}
