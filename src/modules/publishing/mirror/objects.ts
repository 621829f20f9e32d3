import type { Catalogue } from '../catalogue.ts'
import { COPY_EXTENSIONS, type CopyExtension } from '../copies-rule.ts'

/**
 * Where an artifact's objects go and how they are cached: the key prefix, the artifacts' CDN
 * Cache-Control (cdn-cache.ts), and the registered kinds, which name each file's media type and
 * own headers (an asset's Cache-Control).
 */
export interface BucketLayout {
  prefix: string
  cacheControl: string
  kinds: Pick<Catalogue, 'contentType' | 'headers' | 'followers'>
}

/** Objects one mirror job put and deleted. */
export interface MirrorCount {
  put: number
  deleted: number
}

/** One object of the bucket: its key, the CACHE_DIR-relative file holding its bytes, and its headers. */
export interface MirrorObject {
  key: string
  file: string
  headers: Record<string, string>
}

const ENCODING: Record<CopyExtension, string> = { '.br': 'br', '.gz': 'gzip' }

/**
 * The objects one artifact is in the bucket, keyed like CACHE_DIR (`{prefix}{path}`, so `mc mirror`
 * of the bucket is a CACHE_DIR Caddy serves as it is): the main file with the Content-Type and
 * Cache-Control Caddy and the API answer it with, each precompressed copy any release wrote under the same key
 * plus `.br`/`.gz` with its Content-Encoding (which of them an artifact gets: copies-rule.ts). A spelled-out default (`?language=en`) has no object: Caddy
 * looks it up as the main file (the Caddyfile's `{read_query}`), in a CACHE_DIR mirrored from the
 * bucket too.
 */
export function objectsOf(path: string, { prefix, cacheControl, kinds }: BucketLayout): MirrorObject[] {
  const base = { 'Content-Type': kinds.contentType(path), 'Cache-Control': kinds.headers(path)['cache-control'] ?? cacheControl }
  return [
    { key: prefix + path, file: path, headers: base },
    ...COPY_EXTENSIONS.map((ext) => ({
      key: prefix + path + ext,
      file: path + ext,
      headers: { ...base, 'Content-Encoding': ENCODING[ext] },
    })),
  ]
}
