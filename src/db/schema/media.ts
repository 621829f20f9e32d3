import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt } from './columns.ts'

/** Uploaded media by content hash: the same bytes keep the key (and URL) of their first upload. */
export const media = sqliteTable('media', {
  hash: text('hash').primaryKey(),
  key: text('key').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
})
