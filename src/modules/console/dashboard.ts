import { and, count, eq, isNull } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { formatTime } from '../../shared/time.ts'
import { apiTokens, comments, postSchedules, posts, settings, webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import { COMMENT_STATUS } from '../engagement/terms.ts'
import { POST_STATUS } from '../posts/visibility.ts'
import { publicationSettings } from '../settings/settings.ts'
import { listAudit } from '../people/audit.ts'
import type { SessionUser } from '../people/sessions.ts'

/** The settings key `cli backup` writes when it has made a backup (for the checklist). */
const LAST_BACKUP_KEY = 'operations.lastBackupAt'

/** Notes that a backup was made (`cli backup`), which ticks the checklist's last step. */
export function recordBackup(db: Queryable, now: Date): void {
  const value = formatTime(now)
  db.insert(settings).values({ key: LAST_BACKUP_KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } }).run()
}

/** The setup checklist: each step is done when the database (or SITE_URL) says so; it stays until all are. */
export function setupChecklist(ctx: Ctx) {
  const db = ctx.db
  const publication = publicationSettings(db)
  const site = new URL(ctx.config.siteUrl)
  const has = (rows: { n: number } | undefined) => (rows?.n ?? 0) > 0
  return [
    { key: 'siteName', done: publication.nameEn !== '' || publication.nameZh !== '' },
    { key: 'icon', done: publication.iconUrl !== '' },
    { key: 'siteUrl', done: site.protocol === 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(site.hostname) },
    { key: 'token', done: has(db.select({ n: count() }).from(apiTokens).get()) },
    { key: 'post', done: has(db.select({ n: count() }).from(posts).where(eq(posts.status, POST_STATUS.published)).get()) },
    { key: 'webhook', done: has(db.select({ n: count() }).from(webhookReceivers).where(eq(webhookReceivers.kind, 'webhook')).get()) },
    { key: 'backup', done: db.select().from(settings).where(eq(settings.key, LAST_BACKUP_KEY)).get() !== undefined },
  ]
}

/** What the dashboard shows beside `/healthz`: counts, the checklist, and recent activity (an admin sees everyone's). */
export function dashboard(ctx: Ctx, viewer: SessionUser, isAdmin: boolean) {
  const db = ctx.db
  const n = (rows: { n: number } | undefined) => rows?.n ?? 0
  const live = isNull(posts.deletedAt)
  return {
    counts: {
      published: n(
        db
          .select({ n: count() })
          .from(posts)
          .where(and(live, eq(posts.status, POST_STATUS.published)))
          .get(),
      ),
      drafts: n(
        db
          .select({ n: count() })
          .from(posts)
          .where(and(live, eq(posts.status, POST_STATUS.draft)))
          .get(),
      ),
      scheduled: n(db.select({ n: count() }).from(postSchedules).where(eq(postSchedules.action, 'publish')).get()),
      pendingComments: n(db.select({ n: count() }).from(comments).where(eq(comments.status, COMMENT_STATUS.pending)).get()),
      failedDeliveries: n(db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'failed')).get()),
    },
    checklist: setupChecklist(ctx),
    activity: listAudit(db, { size: 10, ...(isAdmin ? {} : { userId: viewer.userId }) }),
  }
}
