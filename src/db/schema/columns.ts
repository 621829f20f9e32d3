import { sql } from 'drizzle-orm'
import { text } from 'drizzle-orm/sqlite-core'

/** Times are stored as the spec shows them, `YYYY-MM-DD HH:mm:ss` UTC, which also sorts as text. */
export const createdAt = () =>
  text('created_at')
    .notNull()
    .default(sql`(strftime('%Y-%m-%d %H:%M:%S', 'now'))`)
export const updatedAt = () =>
  text('updated_at')
    .notNull()
    .default(sql`(strftime('%Y-%m-%d %H:%M:%S', 'now'))`)
