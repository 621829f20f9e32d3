import { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { create as packTar, extract as unpackTar } from 'tar'
import { version } from '../../package.json'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { StartupError } from '../shared/errors.ts'
import { DataDirInUse, lockDataDir } from './lock.ts'

/**
 * A backup is one .tar.gz: `manifest.json`, `folio.db` (a consistent snapshot taken with VACUUM
 * INTO while the service keeps running) and, with the local media store, every file of
 * `DATA_DIR/media`. Media keys are content hashes and a file is written before the row that names
 * it, so the media copied after the snapshot include every file the snapshot refers to. With
 * MEDIA_STORE=s3 the media stay in the bucket and the manifest says so.
 */

export const BACKUP_FORMAT = 'folio-backup'
const FORMAT_VERSION = 1
const DB_FILE = 'folio.db'
const MEDIA = 'media'

export interface BackupManifest {
  format: typeof BACKUP_FORMAT
  formatVersion: number
  folioVersion: string
  createdAt: string
  siteUrl: string
  database: { file: string; bytes: number; sha256: string }
  media:
    { store: 'local'; included: true; files: number; bytes: number } | { store: 's3'; included: false; endpoint: string; bucket: string }
}

/** Refusals a person can act on (bad file, occupied folder); printed as one line. */
export class BackupError extends StartupError {}

/** A file's SHA-256, read a chunk at a time: memory stays flat whatever the database's size. */
function sha256(file: string): string {
  const hash = createHash('sha256')
  const chunk = Buffer.allocUnsafe(1024 * 1024)
  const fd = openSync(file, 'r')
  try {
    for (let read; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0;) hash.update(chunk.subarray(0, read))
  } finally {
    closeSync(fd)
  }
  return hash.digest('hex')
}

/** Files under `root`, relative to it; dot files (uploads being written) are left out. */
export function filesUnder(root: string): string[] {
  if (!existsSync(root)) return []
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')))
    .filter((path) => statSync(join(root, path)).isFile())
    .sort()
}

/** Writes the backup to `file` (through a temporary name, so a crash never leaves half a backup). */
export async function createBackup(config: Config, db: Db, file: string): Promise<BackupManifest> {
  const target = resolve(file)
  mkdirSync(dirname(target), { recursive: true })
  const staging = mkdtempSync(join(dirname(target), '.folio-backup-'))
  try {
    const snapshot = join(staging, DB_FILE)
    db.$client.prepare('VACUUM INTO ?').run(snapshot)
    const mediaRoot = join(config.dataDir, MEDIA)
    const mediaFiles = config.mediaStore === 'local' ? filesUnder(mediaRoot) : []
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: FORMAT_VERSION,
      folioVersion: version,
      createdAt: new Date().toISOString(),
      siteUrl: config.siteUrl,
      database: { file: DB_FILE, bytes: statSync(snapshot).size, sha256: sha256(snapshot) },
      media:
        config.mediaStore === 'local'
          ? {
              store: 'local',
              included: true,
              files: mediaFiles.length,
              bytes: mediaFiles.reduce((sum, f) => sum + statSync(join(mediaRoot, f)).size, 0),
            }
          : { store: 's3', included: false, endpoint: config.s3.endpoint, bucket: config.s3.bucket },
    }
    writeFileSync(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
    // The media folder is packed through a link, so the archive holds media/<key> without a copy on disk.
    if (mediaFiles.length) symlinkSync(mediaRoot, join(staging, MEDIA))
    const partial = `${target}.partial`
    // Read in 1 MB pieces (tar's default is 16 MB): what memory a backup takes stays small and flat.
    await packTar({ file: partial, cwd: staging, gzip: true, portable: true, follow: true, maxReadSize: 1024 * 1024 }, [
      'manifest.json',
      DB_FILE,
      ...mediaFiles.map((f) => `${MEDIA}/${f}`),
    ])
    renameSync(partial, target)
    return manifest
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

export interface RestoreResult {
  manifest: BackupManifest
  /** Where the files that were in DATA_DIR went (with --force), or null. */
  replacedTo: string | null
}

/**
 * Restores a backup into DATA_DIR. Refuses while a server holds the folder, and refuses a folder
 * that already has a database or media unless `force` (the old files are then moved aside into
 * DATA_DIR/replaced-<time>/, never deleted). Everything is unpacked and checked (manifest,
 * checksum, SQLite integrity, media count) before anything in DATA_DIR is touched.
 */
export async function restoreBackup(config: Config, file: string, force: boolean): Promise<RestoreResult> {
  if (!existsSync(file)) throw new BackupError(`no such backup file: ${file}`)
  let lock
  try {
    lock = lockDataDir(config.dataDir)
  } catch (error) {
    if (error instanceof DataDirInUse)
      throw new BackupError(`a Folio server is running on DATA_DIR ${config.dataDir}; stop it before restoring`)
    throw error
  }
  const staging = mkdtempSync(join(config.dataDir, '.restore-'))
  try {
    try {
      // Plain files and folders only: a link in a crafted archive could point outside DATA_DIR.
      await unpackTar({
        file,
        cwd: staging,
        strict: true,
        maxReadSize: 1024 * 1024,
        filter: (_path, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
      })
    } catch (error) {
      throw new BackupError(`${file} is not a Folio backup (cannot unpack it: ${(error as Error).message})`)
    }
    const manifest = readManifest(staging, file)
    const existing = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, MEDIA].filter((name) => existsSync(join(config.dataDir, name)))
    const occupied = existsSync(join(config.dataDir, DB_FILE)) || filesUnder(join(config.dataDir, MEDIA)).length > 0
    if (occupied && !force)
      throw new BackupError(
        `DATA_DIR ${config.dataDir} already holds a database or media; restore into an empty folder, or pass --force to move them aside`,
      )
    let replacedTo: string | null = null
    if (existing.length) {
      replacedTo = join(config.dataDir, `replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`)
      mkdirSync(replacedTo)
      for (const name of existing) renameSync(join(config.dataDir, name), join(replacedTo, name))
    }
    renameSync(join(staging, DB_FILE), join(config.dataDir, DB_FILE))
    if (existsSync(join(staging, MEDIA))) renameSync(join(staging, MEDIA), join(config.dataDir, MEDIA))
    return { manifest, replacedTo }
  } finally {
    rmSync(staging, { recursive: true, force: true })
    lock.release()
  }
}

function readManifest(staging: string, file: string): BackupManifest {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(readFileSync(join(staging, 'manifest.json'), 'utf8'))
  } catch {
    throw new BackupError(`${file} is not a Folio backup (no readable manifest.json)`)
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== FORMAT_VERSION)
    throw new BackupError(`${file} is not a Folio backup of format ${FORMAT_VERSION}`)
  const db = join(staging, DB_FILE)
  if (!existsSync(db) || sha256(db) !== manifest.database.sha256) throw new BackupError(`${file}: the database does not match its checksum`)
  const sqlite = new Database(db, { readonly: true })
  try {
    const check = sqlite.query('PRAGMA integrity_check').values()
    if (check.length !== 1 || check[0]![0] !== 'ok') throw new BackupError(`${file}: the database fails SQLite's integrity check`)
  } finally {
    sqlite.close()
  }
  const media = filesUnder(join(staging, MEDIA))
  const expected = manifest.media.included ? manifest.media.files : 0
  if (media.length !== expected) throw new BackupError(`${file}: ${media.length} media files where the manifest lists ${expected}`)
  return manifest
}

/** One line describing what a manifest holds, for the CLI. */
export function describeBackup(manifest: BackupManifest, file: string): string {
  const media = manifest.media.included
    ? `${manifest.media.files} media files (${manifest.media.bytes} bytes)`
    : `no media: they live in the S3 bucket "${manifest.media.bucket}" at ${manifest.media.endpoint}; back that up with the store's own tools`
  return `${basename(file)}: database (${manifest.database.bytes} bytes) and ${media}, Folio ${manifest.folioVersion}, ${manifest.createdAt}`
}
