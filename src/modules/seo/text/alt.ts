import { fieldLength, isBlank } from './units.ts'

/** An alt that is just the uploaded file's name describes nothing. */
const FILE_NAME = /\.(avif|webp|jpe?g|png|gif|svg)$/i

/** §4 usable alt text (cover_alt, image_alt): non-blank, not a file name, at most `maxLength` characters. */
export function isUsableAlt(alt: string | undefined, maxLength: number): boolean {
  if (alt === undefined || isBlank(alt)) return false
  return !FILE_NAME.test(alt.trim()) && fieldLength(alt) <= maxLength
}
