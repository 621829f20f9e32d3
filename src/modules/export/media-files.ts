import { join } from 'node:path'
import type { Config } from '../../config.ts'
import { filesUnder } from '../../operations/backup.ts'
import { isVariantKey } from '../media/variants.ts'

/**
 * Where the local media store keeps its files, and the uploads' keys (their variants are made
 * again wherever the export lands); none with `MEDIA_STORE=s3` (the bucket keeps them).
 */
export function localMedia(config: Config): { root: string; keys: string[] } {
  const root = join(config.dataDir, 'media')
  return { root, keys: config.mediaStore === 'local' ? filesUnder(root).filter((key) => !isVariantKey(key)) : [] }
}
