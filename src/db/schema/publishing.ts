import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

/**
 * Artifacts (CACHE_DIR-relative paths) that must be rendered again. Rows are written in the same
 * transaction as the change that makes them stale and deleted after the file is in place, only
 * if `seq` is still the one the render read; so a crash in between leaves the row behind and the
 * next start repairs the file, and a change made during a render is rendered again.
 * `dueAt` (ms since epoch) lets engagement counts wait and coalesce instead of one render per
 * clap; `attempts` counts failed renders, for the retry backoff. `lane` 0 is a change's own
 * artifacts (a publish waits for them), 1 the background lane of a site-wide re-render (a settings
 * change, a category rename, a cache rebuild): a pass takes lane 1 only in small slices while
 * lane 0 has nothing due, so a publish never waits behind a site-wide re-render.
 */
export const artifactJobs = sqliteTable(
  'artifact_jobs',
  {
    path: text('path').primaryKey(),
    dueAt: integer('due_at').notNull(),
    seq: integer('seq').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    lane: integer('lane').notNull().default(0),
  },
  (table) => [index('artifact_jobs_due').on(table.dueAt), index('artifact_jobs_lane_due').on(table.lane, table.dueAt)],
)

/**
 * What the artifacts currently show of a post or an author (`post:12`, `author:3`): the public
 * projection as of its last change. A later change re-renders what the old projection touched
 * (old tags, old slug) as well as what the new one touches.
 */
export const artifactSubjects = sqliteTable('artifact_subjects', {
  subject: text('subject').primaryKey(),
  state: text('state', { mode: 'json' }).notNull(),
})

/**
 * The manifest: a content hash of each artifact on disk, written after its file. A render whose
 * bytes hash the same leaves the file (and its ETag and copies) untouched without reading it.
 */
export const artifactFiles = sqliteTable('artifact_files', {
  path: text('path').primaryKey(),
  hash: text('hash').notNull(),
})

/**
 * The artifact mirror's outbox (`PUBLISH_TARGETS=disk,s3`): one row per artifact whose objects in
 * the bucket must be put (from the file's current bytes) or deleted. Written in the same short
 * write that finishes the render jobs, so a crash between the local write and the upload leaves
 * the row; the mirror worker removes it after the upload, only while `seq` is still the one it read.
 */
export const artifactMirrorJobs = sqliteTable(
  'artifact_mirror_jobs',
  {
    path: text('path').primaryKey(),
    op: text('op', { enum: ['put', 'delete'] }).notNull(),
    dueAt: integer('due_at').notNull(),
    seq: integer('seq').notNull(),
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [index('artifact_mirror_jobs_due').on(table.dueAt)],
)
