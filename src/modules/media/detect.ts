/**
 * The raster formats we publish, by the MIME type the bytes prove, with the extension we
 * store them under. GIF is on the list: it is a plain raster format with no scripting or
 * external references (unlike SVG, which is XML that can carry script), and blogs use it for
 * short animations. Everything else, SVG and HTML included, is refused.
 */
export const ACCEPTED_MEDIA = {
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
} as const

export type MediaMime = keyof typeof ACCEPTED_MEDIA
export type MediaExt = (typeof ACCEPTED_MEDIA)[MediaMime]

export interface MediaType {
  mime: MediaMime
  ext: MediaExt
}

export const ACCEPTED_MIME_TYPES = Object.keys(ACCEPTED_MEDIA) as readonly MediaMime[]

/** Human list for error messages: "WebP, AVIF, JPEG, PNG or GIF". */
export const ACCEPTED_TYPES_TEXT = 'WebP, AVIF, JPEG, PNG or GIF'

const MIME_BY_EXT: Readonly<Record<string, MediaMime>> = Object.fromEntries(
  Object.entries(ACCEPTED_MEDIA).map(([mime, ext]) => [ext, mime as MediaMime]),
)

/** The MIME type a stored key's extension stands for, or undefined for anything we never store. */
export const mimeForExt = (ext: string): MediaMime | undefined => MIME_BY_EXT[ext]

/**
 * Decide the type from the bytes alone (magic numbers via `file-type`), never from the
 * file name or the declared Content-Type, which the client controls.
 * Returns undefined for anything outside ACCEPTED_MEDIA.
 */
export async function detectMediaType(bytes: Uint8Array): Promise<MediaType | undefined> {
  // Loaded at the first upload: the feeds and the render threads import this module for
  // `mimeForExt` alone, and file-type's load costs ~40 ms of CPU in every thread that makes it.
  const { fileTypeFromBuffer } = await import('file-type')
  const found = await fileTypeFromBuffer(bytes)
  if (!found) return undefined
  // An animated PNG is still a PNG to every browser; store it as one.
  const mime = found.mime === 'image/apng' ? 'image/png' : found.mime
  if (!(mime in ACCEPTED_MEDIA)) return undefined
  const accepted = mime as MediaMime
  return { mime: accepted, ext: ACCEPTED_MEDIA[accepted] }
}
