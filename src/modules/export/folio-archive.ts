import type { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { create as packTar } from 'tar'
import { version } from '../../../package.json'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { LineTooLong, linesOf } from './lines.ts'
import { spareBytes, unpackBounded } from './unpack.ts'
import { copyStoreMedia, localMedia } from './media-files.ts'
import { isValidMediaKey } from '../media/keys.ts'
import type { MediaStore } from '../media/store.ts'
import { ImportFileError } from '../import/model.ts'

/**
 * The `folio` export (docs/import-export.md, "The Folio archive"): one .tar.gz holding
 * `manifest.json`, `tables/<table>.jsonl` (each row of each content table as a JSON object keyed
 * by its column names, generated columns left out) and `media/<key>` (the local store's files).
 * Tables are written row by row, so memory stays flat whatever the site's size. Secrets (tokens,
 * webhook receivers, the preview secret) and the engine's own state (render queue, artifacts) are
 * not content and stay out: an instance reading the archive makes its own.
 */

export const ARCHIVE_FORMAT = 'folio-export'
const FORMAT_VERSION = 1

/** Content tables, parents before children: the order `import folio` inserts them in. */
const ARCHIVE_TABLES = [
  'settings',
  'authors',
  'categories',
  'tags',
  'media',
  'resource_categories',
  'resources',
  'posts',
  'pages',
  'post_tags',
  'post_slug_history',
  'post_revisions',
  'post_schedules',
  'comments',
  'claps',
  'import_items',
  'import_redirects',
] as const

/** Settings that are secrets of this instance, never exported. */
const SECRET_SETTING = /secret/i

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT
  formatVersion: number
  folioVersion: string
  createdAt: string
  siteUrl: string
  /** Rows per table. */
  tables: Record<string, number>
  media: { store: 'local' | 's3'; files: number }
}

/** Column names of a table without its generated ones (SQLite computes those). */
function storedColumns(sqlite: Database, table: string): string[] {
  const info = sqlite.query(`PRAGMA table_xinfo("${table}")`).all() as { name: string; hidden: number }[]
  return info.filter((c) => c.hidden === 0).map((c) => c.name)
}

/**
 * Writes the archive to `file` through a temporary name, so a crash never leaves half of one.
 * Media come from the local store's folder, or out of the S3 bucket through `store`.
 */
export async function exportFolio(config: Config, db: Db, store: MediaStore, file: string): Promise<ArchiveManifest> {
  const target = resolve(file)
  mkdirSync(dirname(target), { recursive: true })
  const staging = mkdtempSync(join(dirname(target), '.folio-export-'))
  try {
    mkdirSync(join(staging, 'tables'))
    const tables: Record<string, number> = {}
    const sqlite = db.$client
    // One read transaction: every table from the same moment.
    sqlite.run('BEGIN')
    try {
      for (const table of ARCHIVE_TABLES) {
        const columns = storedColumns(sqlite, table)
        const writer = Bun.file(join(staging, 'tables', `${table}.jsonl`)).writer()
        let rows = 0
        for (const row of sqlite.query(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"`).iterate()) {
          if (table === 'settings' && SECRET_SETTING.test(String((row as { key: unknown }).key))) continue
          writer.write(JSON.stringify(row) + '\n')
          rows++
        }
        await writer.end()
        tables[table] = rows
      }
    } finally {
      sqlite.run('COMMIT')
    }
    const local = localMedia(config)
    const mediaFiles = config.mediaStore === 's3' ? await copyStoreMedia(sqlite, store, join(staging, 'media')) : local.keys
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: FORMAT_VERSION,
      folioVersion: version,
      createdAt: new Date().toISOString(),
      siteUrl: config.siteUrl,
      tables,
      media: { store: config.mediaStore, files: mediaFiles.length },
    }
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
    if (local.keys.length) symlinkSync(local.root, join(staging, 'media'))
    const partial = `${target}.partial`
    await packTar({ file: partial, cwd: staging, gzip: true, portable: true, follow: true }, [
      'manifest.json',
      ...ARCHIVE_TABLES.map((t) => `tables/${t}.jsonl`),
      ...mediaFiles.map((f) => `media/${f}`),
    ])
    renameSync(partial, target)
    return manifest
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Tables whose rows mean the instance is not empty: `import folio` reads into an empty one only. */
const CONTENT = ['posts', 'pages', 'categories', 'tags', 'authors', 'comments', 'resources', 'media'] as const
/** Tables added after format version 1 was first written: an archive made before them simply has none. */
const ADDED_LATER: ReadonlySet<string> = new Set(['pages'])
/** One row of a table's file: far past any row Folio writes (a body at its size limit), few enough to hold in memory. */
const MAX_ROW_BYTES = 64 * 1024 * 1024

/**
 * The rows of one table's file, streamed a line at a time (memory holds one row, whatever the
 * table's size), each checked to be an object of that table's stored columns (so every name in
 * the SQL is one).
 */
function* rowsOf(sqlite: Database, staging: string, file: string, table: string): Generator<{ row: Record<string, unknown> }> {
  const path = join(staging, 'tables', `${table}.jsonl`)
  if (!existsSync(path)) {
    if (ADDED_LATER.has(table)) return
    throw new ImportFileError(`${file}: tables/${table}.jsonl`, 'missing')
  }
  const allowed = new Set(storedColumns(sqlite, table))
  const name = `${file}: tables/${table}.jsonl`
  try {
    for (const { line, number } of linesOf(path, MAX_ROW_BYTES)) {
      if (!line) continue
      let row: unknown
      try {
        row = JSON.parse(line)
      } catch {
        throw new ImportFileError(`${name}:${number}`, 'not JSON')
      }
      if (!row || typeof row !== 'object' || Array.isArray(row)) throw new ImportFileError(`${name}:${number}`, 'not a row')
      const unknown = Object.keys(row).find((c) => !allowed.has(c))
      if (unknown) throw new ImportFileError(`${name}:${number}`, `no column "${unknown}" in ${table}`)
      yield { row: row as Record<string, unknown> }
    }
  } catch (error) {
    if (error instanceof LineTooLong) throw new ImportFileError(`${name}:${error.number}`, 'a row larger than 64 MB')
    throw error
  }
}

/**
 * Reads a `folio` archive into an empty instance: every row with its own id (so every URL, link
 * and reference stays as it was), media through the store after checking each file's bytes
 * against its recorded sha256. All tables in one transaction: a bad archive leaves nothing behind.
 */
export async function importFolio(db: Db, store: MediaStore, file: string): Promise<ArchiveManifest> {
  const staging = mkdtempSync(join(dirname(resolve(file)), '.folio-import-'))
  try {
    // Plain files under known names only (a link or a `../` in a crafted archive goes nowhere), and
    // no more than the disk can spare: an archive that would fill it is refused, not unpacked.
    let fits: boolean
    try {
      fits = await unpackBounded(file, staging, (path) => /^(manifest\.json|tables\/|media\/)/.test(path), spareBytes(staging))
    } catch (error) {
      throw new ImportFileError(file, `not a Folio archive (${(error as Error).message})`)
    }
    if (!fits) throw new ImportFileError(file, 'the archive expands to more than the disk has free')
    const manifest = readManifest(staging, file)
    const sqlite = db.$client
    for (const table of CONTENT)
      if ((sqlite.query(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n > 0)
        throw new ImportFileError(file, `this instance already has ${table}: import a Folio archive into an empty one`)
    // Media first, each checked against its sha256: a bad file refuses the archive before any row is written.
    for (const { row } of rowsOf(sqlite, staging, file, 'media')) {
      const key = String(row.key)
      const path = join(staging, 'media', key)
      if (!isValidMediaKey(key) || !existsSync(path)) continue
      const bytes = readFileSync(path)
      if (createHash('sha256').update(bytes).digest('hex') !== row.hash)
        throw new ImportFileError(`${file}: media/${key}`, 'bytes do not match its sha256')
      await store.put(key, bytes, String(row.content_type))
    }
    sqlite.transaction(() => {
      for (const table of ARCHIVE_TABLES) {
        const insert = new Map<string, ReturnType<Database['prepare']>>()
        for (const { row } of rowsOf(sqlite, staging, file, table)) {
          if (table === 'settings' && SECRET_SETTING.test(String(row.key))) continue
          // Only originals travel in the archive: their variants are made again by the server's next start.
          if (table === 'media') row.variants = null
          const columns = Object.keys(row)
          const shape = columns.join(',')
          if (!insert.has(shape))
            insert.set(
              shape,
              // Settings a fresh instance already made (defaults) are replaced by the archive's.
              sqlite.prepare(
                `INSERT ${table === 'settings' ? 'OR REPLACE ' : ''}INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
              ),
            )
          insert.get(shape)!.run(...(columns.map((c) => row[c]) as never[]))
        }
      }
    })()
    return manifest
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

function readManifest(staging: string, file: string): ArchiveManifest {
  let manifest: ArchiveManifest
  try {
    manifest = JSON.parse(readFileSync(join(staging, 'manifest.json'), 'utf8'))
  } catch {
    throw new ImportFileError(file, 'not a Folio archive (no readable manifest.json)')
  }
  if (manifest?.format !== ARCHIVE_FORMAT || manifest.formatVersion !== FORMAT_VERSION)
    throw new ImportFileError(file, `not a Folio archive of format ${FORMAT_VERSION}`)
  return manifest
}
