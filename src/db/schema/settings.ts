import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { updatedAt } from './columns.ts'

/** Publication-wide settings as key/value pairs; only the public ones are ever served. */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
})
