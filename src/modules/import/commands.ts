import { parseArgs } from 'node:util'
import type { compose } from '../../main.ts'
import { LANGUAGES } from '../../shared/language.ts'
import type { ImportEntry } from './model.ts'
import { formatRedirects, REDIRECT_FORMATS, type RedirectFormat } from './redirect-formats.ts'
import { redirectMap } from './redirects.ts'
import { summaryOf } from './report.ts'
import { runImport } from './run.ts'
import { readGhost } from './ghost.ts'
import { readMarkdown } from './markdown.ts'
import { mediaFetcher } from './media-fetch.ts'
import { mediaUploader } from '../media/routes.ts'
import { checkRunner } from '../posts/check-tasks.ts'
import { exportFolio, importFolio } from '../export/folio-archive.ts'
import { catchUpSearchIndex } from '../search/fts.ts'
import { exportWxr } from '../export/wxr.ts'
import { exportMarkdown } from '../export/markdown-folder.ts'
import { readWordpress } from './wordpress.ts'

type Service = Awaited<ReturnType<typeof compose>>

/** The readers of each source format; each yields model.ts entries from a path. */
const READERS: Record<string, (path: string) => AsyncIterable<ImportEntry>> = {
  wordpress: readWordpress,
  ghost: readGhost,
  markdown: readMarkdown,
}

class ImportUsage extends Error {}

/** One post's check on an import's thread: far past any real body's (about a second at the size limit). */
const IMPORT_CHECK_TIMEOUT_MS = 10 * 60_000

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if (!allowed.includes(value as T)) throw new ImportUsage(`--${flag} must be one of ${allowed.join(', ')}, got "${value}"`)
  return value as T
}

async function importCommand(service: Service, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      language: { type: 'string' },
      status: { type: 'string' },
      media: { type: 'string' },
      'dry-run': { type: 'boolean' },
      report: { type: 'string' },
    },
  })
  const [format, path] = positionals
  if (format === 'folio' && path) return importFolioCommand(service, path)
  const reader = format ? READERS[format] : undefined
  if (!reader || !path) throw new ImportUsage(`usage: import ${Object.keys(READERS).join('|')} FILE [options]`)
  const media = oneOf('media', values.media, ['keep', 'fetch'], 'keep')
  const dryRun = values['dry-run'] ?? false
  if (media === 'fetch' && dryRun) throw new ImportUsage('--media fetch writes to the media store: run it without --dry-run')
  const fetchMedia =
    media === 'fetch'
      ? mediaFetcher({
          upload: mediaUploader(service.ctx, service.mediaStore, service.mediaVariants),
          allowPrivate: service.ctx.config.importAllowPrivate,
        })
      : undefined
  const started = performance.now()
  // The checks run on SEO_WORKERS threads, as the server's do, beside this thread's parse and writes.
  // No request waits on them: a body at the size limit on a busy machine may take as long as it takes.
  const seo = checkRunner(service.ctx.config.seoWorkers, service.ctx.log, IMPORT_CHECK_TIMEOUT_MS)
  const report = await runImport({ ...service.ctx, seo }, reader(path), {
    language: oneOf('language', values.language, [...LANGUAGES, 'auto'], 'auto'),
    status: oneOf('status', values.status, ['keep', 'gate'], 'keep'),
    dryRun,
    fetchMedia,
    progress: (n) => console.error(`import ${format}: ${n} posts done (${Math.round((performance.now() - started) / 1000)} s)`),
  }).finally(() => seo.close())
  if (!dryRun) {
    // One render pass for the whole import, never one per post; rows written past the change
    // listeners (if any) are indexed for search first.
    catchUpSearchIndex(service.ctx.db)
    const stats = await service.publisher.rebuild({})
    report.rendered = { rendered: stats.rendered, written: stats.written, removed: stats.removed }
  }
  if (values.report) await Bun.write(values.report, JSON.stringify(report, null, 2) + '\n')
  console.log(summaryOf(report))
}

/** `import folio`: an archive of `export --format folio` into an empty instance, then one render pass. */
async function importFolioCommand(service: Service, path: string): Promise<void> {
  const manifest = await importFolio(service.ctx.db, service.mediaStore, path)
  // The archive's rows were written as they are, past the change listeners: index them for search.
  catchUpSearchIndex(service.ctx.db)
  const stats = await service.publisher.rebuild({})
  const rows = Object.entries(manifest.tables).map(([table, n]) => `${table} ${n}`)
  console.log(
    `imported from Folio ${manifest.folioVersion} (${manifest.createdAt}): ${rows.join(', ')}; ${manifest.media.files} media files`,
  )
  console.log(`rendered: ${stats.rendered}, written: ${stats.written}`)
}

const EXPORT_FORMATS = ['folio', 'markdown', 'wxr'] as const

async function exportCommand(service: Service, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { format: { type: 'string' } } })
  const [file] = positionals
  if (!file) throw new ImportUsage(`usage: export FILE --format ${EXPORT_FORMATS.join('|')}`)
  const format = oneOf('format', values.format, EXPORT_FORMATS, 'folio')
  if (format === 'markdown') {
    const written = exportMarkdown(service.ctx.config, service.ctx.db, file)
    return console.log(`${file}: ${written.posts} posts, ${written.media} media files (a Hugo site folder)`)
  }
  if (format === 'wxr') return console.log(`${file}: ${await exportWxr(service.ctx.config, service.ctx.db, file)} posts (WXR 1.2)`)
  const manifest = await exportFolio(service.ctx.config, service.ctx.db, file)
  const rows = Object.entries(manifest.tables).map(([table, n]) => `${table} ${n}`)
  console.log(`${file}: ${rows.join(', ')}; ${manifest.media.files} media files`)
}

function redirectsExport(service: Service, args: string[]): void {
  const { values } = parseArgs({ args, strict: true, options: { format: { type: 'string' } } })
  const format: RedirectFormat = oneOf('format', values.format, REDIRECT_FORMATS, 'csv')
  for (const line of formatRedirects(format, redirectMap(service.ctx.db))) console.log(line)
}

/** Registered in src/cli.ts: `import …` and `redirects export`. */
export const IMPORT_COMMANDS: Record<string, (service: Service, args: string[]) => Promise<void> | void> = {
  import: importCommand,
  export: exportCommand,
  'redirects export': redirectsExport,
}
