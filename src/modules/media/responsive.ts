import { eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { media } from '../../db/schema/index.ts'
import { keyFromMediaUrl, mediaUrlFor } from './keys.ts'
import { VARIANT_MIME, variantFormats, variantKey } from './variants.ts'

/**
 * What a page needs to show one of our own uploads responsively, read from the media table
 * alone (never from the image files, so a render stays cheap and deterministic): its intrinsic
 * size and, once made, the variants as `<source>` sets, best format first, with the `<img>`'s
 * own format last. A page never links the original once variants exist: it may still carry
 * the camera's EXIF.
 */
export interface ResponsiveImage {
  width: number
  height: number
  /** `<source type srcset>` for the formats before the fallback (AVIF, then WebP for a JPEG or PNG). */
  sources: { type: string; srcset: string }[]
  /** The `<img>`'s own src and srcset (the original's format); srcset empty without variants. */
  src: string
  srcset: string
  /** The type and bytes of the file `src` names (RSS's `enclosure@type` and `@length`); size null when not recorded. */
  type: string
  size: number | null
}

/** A URL on a page → its responsive form, or undefined for an image that is not one of our uploads (or has no recorded size). */
export type ImageLookup = (url: string) => ResponsiveImage | undefined

export const noImages: ImageLookup = () => undefined

function parseWidths(variants: string | null): number[] {
  if (!variants) return []
  try {
    const widths: unknown = JSON.parse(variants)
    return Array.isArray(widths) ? widths.filter((w): w is number => Number.isInteger(w) && w > 0) : []
  } catch {
    return []
  }
}

/** The responsive form of uploads under `mediaUrl`, looked up once per URL for the lookup's lifetime (one render snapshot). */
export function imageLookup(db: Queryable, mediaUrl: string): ImageLookup {
  const known = new Map<string, ResponsiveImage | undefined>()
  const find = (url: string): ResponsiveImage | undefined => {
    const key = keyFromMediaUrl(mediaUrl, url)
    if (!key) return undefined
    const row = db
      .select({
        width: media.width,
        height: media.height,
        contentType: media.contentType,
        size: media.size,
        variants: media.variants,
        largestVariantSize: media.largestVariantSize,
      })
      .from(media)
      .where(eq(media.key, key))
      .get()
    if (!row?.width || !row.height) return undefined
    const widths = parseWidths(row.variants)
    const formats = variantFormats(row.contentType)
    if (!widths.length || !formats.length)
      return { width: row.width, height: row.height, sources: [], src: url, srcset: '', type: row.contentType, size: row.size }
    const base = mediaUrlFor(mediaUrl, key)
    const set = (ext: string) => widths.map((w) => `${variantKey(base, w, ext)} ${w}w`).join(', ')
    const fallback = formats[formats.length - 1]!
    return {
      width: row.width,
      height: row.height,
      sources: formats.slice(0, -1).map((ext) => ({ type: VARIANT_MIME[ext], srcset: set(ext) })),
      src: variantKey(base, Math.max(...widths), fallback),
      srcset: set(fallback),
      type: VARIANT_MIME[fallback],
      size: row.largestVariantSize,
    }
  }
  return (url) => {
    if (!known.has(url)) known.set(url, find(url))
    return known.get(url)
  }
}
