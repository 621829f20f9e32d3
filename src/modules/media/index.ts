/**
 * Media: upload (§4.1) and the stores behind it. The HTTP route calls `uploadMedia` with a
 * store chosen once at start-up by `openMediaStore`; it maps `MediaRejected` to 400.
 */
import { createLocalMediaStore, type LocalMediaStore } from './local-store.ts'
import { createS3MediaStore, type S3MediaStore, type S3StoreOptions } from './s3-store.ts'

export { ACCEPTED_MEDIA, ACCEPTED_MIME_TYPES, ACCEPTED_TYPES_TEXT, detectMediaType, mimeForExt } from './detect.ts'
export type { MediaExt, MediaMime, MediaType } from './detect.ts'
export { InvalidMediaKey, MediaRejected } from './errors.ts'
export type { MediaRejectCode, MediaRejectData } from './errors.ts'
export { assertValidMediaKey, contentHash, isValidMediaKey, keyFor, keyFromMediaUrl, mediaUrlFor } from './keys.ts'
export { createLocalMediaStore, MEDIA_RESPONSE_HEADERS } from './local-store.ts'
export type { LocalMediaStore } from './local-store.ts'
export { createS3MediaStore, publicReadPolicy } from './s3-store.ts'
export type { S3MediaStore, S3StoreOptions } from './s3-store.ts'
export type { MediaIndex, MediaRecord, MediaStore } from './store.ts'
export { readWithin, uploadMedia } from './upload.ts'
export type { UploadDeps, UploadedMedia, UploadInput } from './upload.ts'

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
