import type { Database } from 'bun:sqlite'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Config } from '../../config.ts'
import { filesUnder } from '../../operations/backup.ts'
import { isValidMediaKey } from '../media/keys.ts'
import type { MediaStore } from '../media/store.ts'
import { isVariantKey } from '../media/variants.ts'

/**
 * Where the local media store keeps its files, and the uploads' keys (their variants are made
 * again wherever the export lands); none with `MEDIA_STORE=s3` (the bucket keeps them).
 */
export function localMedia(config: Config): { root: string; keys: string[] } {
  const root = join(config.dataDir, 'media')
  return { root, keys: config.mediaStore === 'local' ? filesUnder(root).filter((key) => !isVariantKey(key)) : [] }
}

/**
 * The uploads of an S3 store (the `media` table's keys), copied out of the bucket into `dir`
 * one object at a time (memory holds one file); their keys. An object the bucket lost is left out.
 */
export async function copyStoreMedia(sqlite: Database, store: MediaStore, dir: string): Promise<string[]> {
  const keys: string[] = []
  for (const { key } of sqlite.query('SELECT DISTINCT key FROM media ORDER BY key').all() as { key: string }[]) {
    if (!isValidMediaKey(key)) continue
    const bytes = await store.read(key)
    if (!bytes) continue
    const target = join(dir, key)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, bytes)
    keys.push(key)
  }
  return keys
}
