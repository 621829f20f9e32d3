import { parseArgs } from 'node:util'
import type { compose } from '../../main.ts'
import { LANGUAGES } from '../../shared/language.ts'
import { formatRedirects, REDIRECT_FORMATS, type RedirectFormat } from './redirect-formats.ts'
import { redirectMap } from './redirects.ts'
import { summaryOf } from './report.ts'
import { importArchive, importSource, READERS, type SourceFormat } from './execute.ts'
import { exportFolio } from '../export/folio-archive.ts'
import { exportWxr } from '../export/wxr.ts'
import { exportMarkdown } from '../export/markdown-folder.ts'

type Service = Awaited<ReturnType<typeof compose>>

class ImportUsage extends Error {}

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
  if (!format || !Object.hasOwn(READERS, format) || !path)
    throw new ImportUsage(`usage: import ${Object.keys(READERS).join('|')} FILE [options]`)
  const media = oneOf('media', values.media, ['keep', 'fetch'], 'keep')
  const dryRun = values['dry-run'] ?? false
  if (media === 'fetch' && dryRun) throw new ImportUsage('--media fetch writes to the media store: run it without --dry-run')
  const started = performance.now()
  const options = {
    language: oneOf('language', values.language, [...LANGUAGES, 'auto'], 'auto'),
    status: oneOf('status', values.status, ['keep', 'gate'], 'keep'),
    media,
    dryRun,
  }
  const report = await importSource(service, format as SourceFormat, path, options, (n) =>
    console.error(`import ${format}: ${n} posts done (${Math.round((performance.now() - started) / 1000)} s)`),
  )
  if (values.report) await Bun.write(values.report, JSON.stringify(report, null, 2) + '\n')
  console.log(summaryOf(report))
}

/** `import folio`: an archive of `export --format folio` into an empty instance, then one render pass. */
async function importFolioCommand(service: Service, path: string): Promise<void> {
  const { manifest, stats } = await importArchive(service, path)
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
    const written = await exportMarkdown(service.ctx.config, service.ctx.db, service.mediaStore, file)
    return console.log(`${file}: ${written.post} posts, ${written.page} pages, ${written.media} media files (a Hugo site folder)`)
  }
  if (format === 'wxr') {
    const written = await exportWxr(service.ctx.config, service.ctx.db, file)
    return console.log(`${file}: ${written.post} posts, ${written.page} pages (WXR 1.2)`)
  }
  const manifest = await exportFolio(service.ctx.config, service.ctx.db, service.mediaStore, file)
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
