import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, updatedAt } from './columns.ts'

/**
 * An import started from the admin console (docs/import-export.md, "From the console"): its
 * source format and options, its state as it runs in the server's background, the posts done so
 * far, and when it ends its report (JSON) or the one-line error. A server that stops mid-import
 * marks the run `interrupted` at its next start, so the console says what happened.
 */
export const importRuns = sqliteTable('import_runs', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  format: text('format', { enum: ['wordpress', 'ghost', 'markdown', 'folio'] }).notNull(),
  fileName: text('file_name').notNull(),
  /** `{ language, status, media, dryRun }` as JSON. */
  options: text('options').notNull(),
  state: text('state', { enum: ['running', 'done', 'failed', 'interrupted'] }).notNull(),
  postsDone: integer('posts_done').notNull().default(0),
  /** The import's report (report.ts), or for a Folio archive its manifest, as JSON; null until done. */
  report: text('report'),
  error: text('error'),
  /** Who started it: the console user's (or token's) name, as the audit log names callers. */
  startedBy: text('started_by').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})
