import type { ImageLookup } from '../../media/responsive.ts'

/**
 * `sizes` of the theme's image slots (theme.css): the article column (42rem, the page's padding
 * aside on a phone), a list card (one column on a phone, two, then three in 64rem) and the small
 * fixed ones.
 */
export const SIZES = {
  column: '(max-width: 44.5rem) calc(100vw - 2.5rem), 42rem',
  card: '(max-width: 38rem) calc(100vw - 2.5rem), (max-width: 58rem) calc(50vw - 2rem), 20.5rem',
  avatar: '4rem',
  icon: '2rem',
} as const

export interface PictureProps {
  src: string
  alt: string
  images: ImageLookup | undefined
  sizes: string
  /** The size to declare when the image is not one of our uploads. */
  width: number
  height: number
  /** A slot of fixed size (an avatar, the icon): declare `width`/`height` even for an upload. */
  fixed?: boolean
  loading?: 'eager' | 'lazy'
  fetchpriority?: 'high'
}

/**
 * An image of the page: one of our uploads with variants becomes a `<picture>` (AVIF, WebP, then
 * the original's format at each width, with `sizes`) and its intrinsic `width`/`height`; any other
 * image stays a plain `<img>` with the size given. Always `decoding="async"`.
 */
export function Picture({ src, alt, images, sizes, width, height, fixed, loading, fetchpriority }: PictureProps) {
  const image = images?.(src)
  const declared = image && !fixed ? image : { width, height }
  const img = (
    <img
      src={image?.src ?? src}
      srcset={image?.srcset || undefined}
      sizes={image?.srcset ? sizes : undefined}
      alt={alt}
      width={declared.width}
      height={declared.height}
      decoding="async"
      loading={loading}
      fetchpriority={fetchpriority}
    />
  )
  if (!image?.sources.length) return img
  return (
    <picture>
      {image.sources.map((s) => (
        <source type={s.type} srcset={s.srcset} sizes={sizes} />
      ))}
      {img}
    </picture>
  )
}
