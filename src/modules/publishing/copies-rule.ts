import { statSync } from 'node:fs'

/**
 * Below this many bytes an artifact's main file gets no precompressed copies (`.br`, `.gz`): an
 * answer that small fits one packet with its headers whatever its encoding, so a copy saves nothing
 * on the wire, yet costs two inodes, two renames, a `utimes` and two folder entries on every write.
 * nginx's `gzip_min_length`, Cloudflare and Caddy's `encode` skip such bodies too. Measured on this
 * project's artifacts (docs/publishing.md, "Compression"; docs/benchmarks.md, "Small artifacts").
 * Caddy's `precompressed br gzip` answers the main file when a copy is missing, as the API always
 * does, so both give such an artifact's identity bytes with the same ETag.
 */
export const COPIES_MIN_BYTES = 1024

/** Whether an artifact of this many bytes has precompressed copies beside its main file. */
export const needsCopies = (size: number): boolean => size >= COPIES_MIN_BYTES

/**
 * Whether the main file at this absolute name is too small to need copies: a small artifact
 * without copies is whole. False when the file is not there (or is no file).
 */
export function wholeWithoutCopies(file: string): boolean {
  const stat = statSync(file, { throwIfNoEntry: false })
  return stat !== undefined && stat.isFile() && !needsCopies(stat.size)
}
