import { statSync } from 'node:fs'

/**
 * Which precompressed copies an artifact's main file gets (docs/publishing.md, "Compression"):
 * the one rule every writer, the copies thread, the rebuild's scan, the integrity check and the S3
 * mirror follow (the CDN purge names URLs, never copies).
 */

/** Every copy's extension, in the order they are written; what any release ever wrote beside a main file. */
export const COPY_EXTENSIONS = ['.br', '.gz'] as const
export type CopyExtension = (typeof COPY_EXTENSIONS)[number]

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
 * Whether the artifact at this CACHE_DIR-relative main file (`{URL path}/@{query}`) is read by
 * scripts and agents rather than browsers, so a gzip copy serves all its readers: the API's JSON
 * reads (everything under `api/` but its sitemaps, feed and robots.txt, which crawlers and feed
 * readers fetch) and the Markdown twins (`….md/@`). curl, fetch clients, MCP clients and LLM
 * crawlers ask for nothing or for gzip (some with br beside it); Caddy's `precompressed br gzip` answers a client that accepts
 * both with the `.gz` when no `.br` stands. The media types of artifacts/paths.ts `contentTypeOf`
 * (`application/json`, `text/markdown`), read from the path alone: the copies thread and the
 * rebuild's scan know nothing else of an artifact.
 */
export function gzipOnly(path: string): boolean {
  const mark = path.lastIndexOf('/@')
  if (mark < 0) return false
  const url = path.slice(0, mark)
  if (url.endsWith('.md')) return true
  return url.startsWith('api/') && !url.endsWith('.xml') && !url.endsWith('.txt')
}

/** Whether a copy with this extension may stand beside the main file at `path` (at a size that takes copies). */
export const mayHaveCopy = (path: string, ext: CopyExtension): boolean => ext !== '.br' || !gzipOnly(path)

const NONE: readonly CopyExtension[] = []
const GZIP: readonly CopyExtension[] = ['.gz']

/** The copies the main file at `path` of `size` bytes gets: none under COPIES_MIN_BYTES, `.gz` alone where `gzipOnly`, else both. */
export function copiesOf(path: string, size: number): readonly CopyExtension[] {
  if (!needsCopies(size)) return NONE
  return gzipOnly(path) ? GZIP : COPY_EXTENSIONS
}

/**
 * Whether the main file at this absolute name is too small to need copies: a small artifact
 * without copies is whole. False when the file is not there (or is no file).
 */
export function wholeWithoutCopies(file: string): boolean {
  const stat = statSync(file, { throwIfNoEntry: false })
  return stat !== undefined && stat.isFile() && !needsCopies(stat.size)
}
