import type { Ctx } from '../../context.ts'
import { importFolio, type ArchiveManifest } from '../export/folio-archive.ts'
import type { MediaStore } from '../media/store.ts'
import type { VariantJobs } from '../media/variant-jobs.ts'
import { mediaUploader } from '../media/routes.ts'
import { checkRunner } from '../posts/check-tasks.ts'
import type { RebuildStats } from '../publishing/stats.ts'
import { catchUpSearchIndex } from '../search/fts.ts'
import { readGhost } from './ghost.ts'
import type { LanguageChoice } from './language.ts'
import { readMarkdown } from './markdown.ts'
import { mediaFetcher } from './media-fetch.ts'
import type { ImportEntry } from './model.ts'
import type { ImportReport } from './report.ts'
import { IMPORT_IN_FLIGHT, runImport, type ImportOptions } from './run.ts'
import { readWordpress } from './wordpress.ts'

/** What an import needs of the composed service (main.ts): the CLI and the console's background run share it. */
export interface ImportService {
  ctx: Ctx
  mediaStore: MediaStore
  mediaVariants: VariantJobs
  publisher: { rebuild(options: { force?: boolean }): Promise<RebuildStats> }
}

/** The readers of each source format; each yields model.ts entries from a path. */
export const READERS = {
  wordpress: readWordpress,
  ghost: readGhost,
  markdown: readMarkdown,
} satisfies Record<string, (path: string) => AsyncIterable<ImportEntry>>

export type SourceFormat = keyof typeof READERS

export interface SourceOptions {
  language: LanguageChoice
  status: ImportOptions['status']
  media: 'keep' | 'fetch'
  dryRun: boolean
}

/** One post's check on an import's thread: far past any real body's (about a second at the size limit). */
const IMPORT_CHECK_TIMEOUT_MS = 10 * 60_000

/**
 * Imports a WordPress, Ghost or Markdown source at `path`, then (unless a dry run) renders once.
 * `--media fetch` never goes with a dry run: the caller refuses that pair.
 */
export async function importSource(
  service: ImportService,
  format: SourceFormat,
  path: string,
  options: SourceOptions,
  progress?: (postsDone: number) => void,
): Promise<ImportReport> {
  const { ctx } = service
  const fetchMedia =
    options.media === 'fetch'
      ? mediaFetcher({ upload: mediaUploader(ctx, service.mediaStore, service.mediaVariants), allowPrivate: ctx.config.importAllowPrivate })
      : undefined
  // The checks run on SEO_WORKERS threads beside this thread's parse and writes. No request waits
  // on them: a body at the size limit on a busy machine may take as long as it takes.
  const seo = checkRunner(ctx.config.seoWorkers, ctx.log, IMPORT_CHECK_TIMEOUT_MS, IMPORT_IN_FLIGHT)
  const report = await runImport({ ...ctx, seo }, READERS[format](path), {
    language: options.language,
    status: options.status,
    dryRun: options.dryRun,
    fetchMedia,
    progress,
  }).finally(() => seo.close())
  if (!options.dryRun) {
    // One render pass for the whole import, never one per post; rows written past the change
    // listeners (if any) are indexed for search first.
    catchUpSearchIndex(ctx.db)
    const stats = await service.publisher.rebuild({})
    report.rendered = { rendered: stats.rendered, written: stats.written, removed: stats.removed }
  }
  return report
}

/** `import folio`: an archive of `export --format folio` into an empty instance, then one render pass. */
export async function importArchive(service: ImportService, path: string): Promise<{ manifest: ArchiveManifest; stats: RebuildStats }> {
  const manifest = await importFolio(service.ctx.db, service.mediaStore, path)
  // The archive's rows were written as they are, past the change listeners: index them for search.
  catchUpSearchIndex(service.ctx.db)
  return { manifest, stats: await service.publisher.rebuild({}) }
}
