import { DEFAULT_MAX_IMAGE_PIXELS } from '../../config-model.ts'
import { readAtMost } from '../../shared/stream.ts'
import { ACCEPTED_MIME_TYPES, ACCEPTED_TYPES_TEXT, detectMediaType, type MediaMime } from './detect.ts'
import { structureFault } from './structure.ts'
import { MediaRejected } from './errors.ts'
import { storedOriginal } from './strip.ts'
import { contentHash, keyFor, mediaUrlFor } from './keys.ts'
import type { MediaIndex, MediaStore } from './store.ts'

export interface UploadDeps {
  store: MediaStore
  /** `MEDIA_URL`: public base of uploaded media. */
  mediaUrl: string
  /** `MAX_UPLOAD_BYTES`. */
  maxBytes: number
  /** `MAX_IMAGE_PIXELS`: width x height an image may declare (default 40 megapixels). */
  maxPixels?: number
  /** Clock for the `YYYY/MM/` prefix; injectable for tests. */
  now?: () => Date
  /** Record of uploads by hash; without it, dedupe holds within a month only. */
  index?: MediaIndex
  /** Makes the upload's responsive variants once it is recorded (variant-jobs.ts); awaited (for a bounded time), never throws. */
  variants?: (hash: string) => Promise<unknown>
}

/**
 * What an upload may arrive as: a `File`/`Blob` from a multipart body (its size is known
 * before any byte is read), raw bytes, or a stream with an optional declared size
 * (Content-Length), which is read only up to the limit.
 */
export type UploadInput = Blob | Uint8Array | { stream: ReadableStream<Uint8Array>; size?: number | null | undefined }

export interface UploadedMedia {
  key: string
  url: string
  contentType: string
  size: number
  /** Full sha256 hex of the bytes. */
  hash: string
  /** True when the same bytes were already stored and nothing was written. */
  deduplicated: boolean
}

/**
 * Accept one image: refuse empty and oversized files before reading them whole, decide the
 * type from the bytes, store under a content-addressed key, and return `MEDIA_URL/<key>`.
 * Throws MediaRejected for anything the client must fix.
 */
export async function uploadMedia(deps: UploadDeps, file: UploadInput): Promise<UploadedMedia> {
  const uploaded = await readWithin(file, deps.maxBytes)

  const type = await detectMediaType(uploaded)
  if (!type) {
    throw new MediaRejected(
      'MEDIA_UNSUPPORTED_TYPE',
      `Unsupported image type: upload a ${ACCEPTED_TYPES_TEXT} image (SVG, HTML and other files are refused; the type is read from the file's content, not its name).`,
      { field: 'file', acceptedTypes: ACCEPTED_MIME_TYPES },
    )
  }

  refuseBadStructure(uploaded, type.mime, deps.maxPixels ?? DEFAULT_MAX_IMAGE_PIXELS)
  // What is stored, hashed and served: the upload without its EXIF/GPS, XMP and text (strip.ts).
  const bytes = await storedOriginal(uploaded, type.mime)

  const hash = contentHash(bytes)
  // The key of the first upload wins, so URLs already in posts stay valid; only new bytes
  // get a key from today's month.
  const known = await deps.index?.keyForHash(hash)
  const key = known ?? keyFor(hash, type.ext, (deps.now ?? (() => new Date()))())
  // Also covers "no index" (same bytes, same month) and an index whose object went missing,
  // which is written back under its recorded key.
  const already = await deps.store.exists(key)
  if (!already) await deps.store.put(key, bytes, type.mime)
  if (!known) await deps.index?.record({ hash, key, contentType: type.mime, size: bytes.byteLength })
  // Before the answer, so a post saved with the URL renders with them; a no-op when they exist.
  await deps.variants?.(hash)
  return result(deps, key, type.mime, bytes.byteLength, hash, already)
}

const result = (deps: UploadDeps, key: string, contentType: string, size: number, hash: string, deduplicated: boolean): UploadedMedia => ({
  key,
  url: mediaUrlFor(deps.mediaUrl, key),
  contentType,
  size,
  hash,
  deduplicated,
})

/** A 400 naming `file` for an image whose header or structure is not what it must be (structure.ts). */
function refuseBadStructure(bytes: Uint8Array, mime: MediaMime, maxPixels: number): void {
  const fault = structureFault(bytes, mime, maxPixels)
  if (!fault) return
  if (fault.kind === 'pixels')
    throw new MediaRejected(
      'MEDIA_TOO_MANY_PIXELS',
      `Image too large: ${fault.width} x ${fault.height} pixels is more than the limit of ${maxPixels} pixels (MAX_IMAGE_PIXELS).`,
      { field: 'file', maxPixels, width: fault.width, height: fault.height },
    )
  const why = fault.kind === 'length' ? fault.message : 'its header cannot be decoded'
  throw new MediaRejected('MEDIA_CORRUPT', `The image is not whole: ${why}.`)
}

const tooLarge = (maxBytes: number, size?: number) =>
  new MediaRejected(
    'MEDIA_TOO_LARGE',
    `File too large: the limit is ${formatBytes(maxBytes)} (${maxBytes} bytes)${size === undefined ? '' : `, this file has ${size} bytes`}.`,
    size === undefined ? { field: 'file', maxBytes } : { field: 'file', maxBytes, size },
  )

const empty = () => new MediaRejected('MEDIA_EMPTY', 'The file is empty: upload an image.', { field: 'file' })

/** Read the upload into memory, but never more than maxBytes of it. */
export async function readWithin(file: UploadInput, maxBytes: number): Promise<Uint8Array> {
  if (file instanceof Uint8Array) {
    if (file.byteLength === 0) throw empty()
    if (file.byteLength > maxBytes) throw tooLarge(maxBytes, file.byteLength)
    return file
  }
  if (file instanceof Blob) {
    if (file.size === 0) throw empty()
    if (file.size > maxBytes) throw tooLarge(maxBytes, file.size)
    return new Uint8Array(await file.arrayBuffer())
  }

  const { stream, size } = file
  if (size != null && size > maxBytes) {
    await stream.cancel().catch(() => {})
    throw tooLarge(maxBytes, size)
  }
  // Stops at the first byte past the limit; a lying or absent Content-Length gains nothing.
  const bytes = await readAtMost(stream, maxBytes)
  if (!bytes) throw tooLarge(maxBytes)
  if (bytes.byteLength === 0) throw empty()
  return bytes
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}
