import { desc, eq, sql } from 'drizzle-orm'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { unpackBounded } from '../export/unpack.ts'
import { importRuns } from '../../db/schema/index.ts'
import { DomainError, invalidField, NotFound } from '../../shared/errors.ts'
import { importArchive, importSource, type ImportService, type SourceFormat, type SourceOptions } from './execute.ts'
import { ImportFileError } from './model.ts'

export type RunFormat = SourceFormat | 'folio'

/** A Markdown folder uploaded as a tar (or .tar.gz) expands to at most this much: a tar bomb stops there. */
const MAX_FOLDER_BYTES = 256 * 1024 * 1024

export interface RunView {
  id: number
  format: RunFormat
  fileName: string
  options: SourceOptions
  state: 'running' | 'done' | 'failed' | 'interrupted'
  postsDone: number
  startedBy: string
  createdAt: string
  updatedAt: string
  error: string | null
}

/** A run as the console reads it: with its report once done. */
export interface RunDetail extends RunView {
  report: unknown
}

class ImportBusy extends DomainError {
  constructor(id: number) {
    super('IMPORT_RUNNING', 409, `Import ${id} is still running: wait for it to end.`, { id })
  }
}

const view = (row: typeof importRuns.$inferSelect): RunView => ({
  id: row.id,
  format: row.format,
  fileName: row.fileName,
  options: JSON.parse(row.options),
  state: row.state,
  postsDone: row.postsDone,
  startedBy: row.startedBy,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  error: row.error,
})

/**
 * Imports started from the console, run one at a time in the server's background: the upload is
 * written under `DATA_DIR/imports/<id>/` (a Markdown folder's tar expanded there with plain files
 * only), read by the same readers and limits as the CLI, and deleted when the run ends. Each run
 * is an `import_runs` row whose state, progress and report the console polls.
 */
export function importRunner(service: ImportService) {
  const { db, config, log } = service.ctx
  const root = join(config.dataDir, 'imports')
  let running: Promise<void> | null = null
  const update = (id: number, values: Partial<typeof importRuns.$inferInsert>) =>
    db
      .update(importRuns)
      .set({ ...values, updatedAt: sql`(strftime('%Y-%m-%d %H:%M:%S', 'now'))` })
      .where(eq(importRuns.id, id))
      .run()

  async function execute(id: number, format: RunFormat, dir: string, upload: string, options: SourceOptions): Promise<void> {
    try {
      if (format === 'folio') {
        const { manifest, stats } = await importArchive(service, upload)
        update(id, { state: 'done', report: JSON.stringify({ manifest, rendered: stats }) })
      } else {
        const source = format === 'markdown' ? await expandFolder(upload, join(dir, 'site')) : upload
        const report = await importSource(service, format, source, options, (postsDone) => update(id, { postsDone }))
        update(id, {
          state: 'done',
          postsDone: report.counts.posts.created + report.counts.posts.updated + report.counts.posts.unchanged,
          report: JSON.stringify(report),
        })
      }
    } catch (error) {
      const known = error instanceof ImportFileError || error instanceof DomainError
      if (!known) log.error('console import failed', { id, error: String(error) })
      update(id, { state: 'failed', error: known ? error.message : `the import stopped: ${(error as Error).message}` })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  return {
    /** At the server's start: runs a stopped server left `running` are said to be interrupted. */
    recover(): number {
      rmSync(root, { recursive: true, force: true })
      return db
        .update(importRuns)
        .set({ state: 'interrupted', error: 'the server stopped during this import: run it again (a re-run creates nothing twice)' })
        .where(eq(importRuns.state, 'running'))
        .returning({ id: importRuns.id })
        .all().length
    },

    start(format: RunFormat, fileName: string, bytes: Uint8Array, options: SourceOptions, startedBy: string): RunView {
      if (options.media === 'fetch' && options.dryRun) throw invalidField('media', 'fetch writes to the media store: not with a dry run')
      const busy = db.select({ id: importRuns.id }).from(importRuns).where(eq(importRuns.state, 'running')).get()
      if (busy || running) throw new ImportBusy(busy?.id ?? 0)
      const row = db
        .insert(importRuns)
        .values({ format, fileName: fileName.slice(0, 200), options: JSON.stringify(options), state: 'running', startedBy })
        .returning()
        .get()
      const dir = join(root, String(row.id))
      mkdirSync(dir, { recursive: true })
      // A name of our own: the uploaded file's name never reaches the file system.
      const upload = join(dir, format === 'wordpress' ? 'source.xml' : format === 'ghost' ? 'source.json' : 'source.tar')
      writeFileSync(upload, bytes)
      running = execute(row.id, format, dir, upload, options).finally(() => (running = null))
      return view(row)
    },

    list(): RunView[] {
      return db.select().from(importRuns).orderBy(desc(importRuns.id)).limit(20).all().map(view)
    },

    get(id: number): RunDetail {
      const row = db.select().from(importRuns).where(eq(importRuns.id, id)).get()
      if (!row) throw new NotFound('import', id)
      return { ...view(row), report: row.report ? JSON.parse(row.report) : null }
    },

    /** The run's report as stored (JSON text), for the download; null while it runs or when it failed. */
    reportText(id: number): string | null {
      const row = db.select({ report: importRuns.report }).from(importRuns).where(eq(importRuns.id, id)).get()
      if (!row) throw new NotFound('import', id)
      return row.report
    },

    /** Waits for the run in progress (the server's stop). */
    async close(): Promise<void> {
      await running
    },
  }
}

export type ImportRunner = ReturnType<typeof importRunner>

/**
 * A Markdown folder uploaded as a tar or .tar.gz, expanded under `dir`: plain files and folders
 * only (a link or a `../` goes nowhere), at most MAX_FOLDER_BYTES in all.
 */
async function expandFolder(file: string, dir: string): Promise<string> {
  mkdirSync(dir)
  let fits: boolean
  try {
    fits = await unpackBounded(file, dir, () => true, MAX_FOLDER_BYTES)
  } catch (error) {
    throw new ImportFileError('file', `not a tar of a Markdown folder (${(error as Error).message})`)
  }
  if (!fits) throw new ImportFileError('file', `the folder is larger than ${MAX_FOLDER_BYTES / 1024 / 1024} MB expanded`)
  return dir
}
