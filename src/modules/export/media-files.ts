import { join } from 'node:path'
import type { Config } from '../../config.ts'
import { filesUnder } from '../../operations/backup.ts'

/** Where the local media store keeps its files, and their keys; none with `MEDIA_STORE=s3` (the bucket keeps them). */
export function localMedia(config: Config): { root: string; keys: string[] } {
  const root = join(config.dataDir, 'media')
  return { root, keys: config.mediaStore === 'local' ? filesUnder(root) : [] }
}
