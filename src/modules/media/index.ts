/**
 * Media: upload (§4.1) and the stores behind it. The HTTP route calls `uploadMedia` with a
 * store chosen once at start-up by `openMediaStore`; it maps `MediaRejected` to 400.
 */
import { createLocalMediaStore, type LocalMediaStore } from './local-store.ts'
import { createS3MediaStore, type S3MediaStore, type S3StoreOptions } from './s3-store.ts'

export { contentHash, mediaUrlFor } from './keys.ts'
export type { LocalMediaStore } from './local-store.ts'
export type { S3MediaStore } from './s3-store.ts'

/** `MEDIA_STORE` and the settings each kind needs (operations.md). */
export type MediaStoreConfig = { kind: 'local'; dataDir: string } | ({ kind: 's3' } & S3StoreOptions)

/**
 * The store for this configuration. The local store can serve its files (`serve`); with S3
 * the bucket serves them and MEDIA_URL points at it.
 */
export async function openMediaStore(config: MediaStoreConfig): Promise<LocalMediaStore | S3MediaStore> {
  if (config.kind === 'local') return createLocalMediaStore(config.dataDir)
  const { kind: _kind, ...options } = config
  return createS3MediaStore(options)
}
