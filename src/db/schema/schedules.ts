import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './columns.ts'
import { posts } from './posts.ts'

/**
 * A post's pending scheduled transition (docs/agents.md "Schedules"): at most one `publish` and
 * one `unpublish` per post. Kept apart from the post row, so a schedule is never content (it
 * changes no post field and no artifact). The scheduler claims a due row by moving
 * `claimed_until` forward with a conditional UPDATE; the transition's own transaction deletes it.
 */
export const postSchedules = sqliteTable(
  'post_schedules',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => posts.id),
    action: text('action', { enum: ['publish', 'unpublish'] }).notNull(),
    /** `YYYY-MM-DD HH:mm:ss` UTC, which sorts as text. */
    dueAt: text('due_at').notNull(),
    /** Epoch ms until which a scheduler run owns the row; null while nobody does. */
    claimedUntil: integer('claimed_until'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.postId, table.action] }), index('post_schedules_due').on(table.dueAt)],
)
