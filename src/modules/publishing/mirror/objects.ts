import type { Catalogue } from '../catalogue.ts'
import { SIDECARS } from '../writer.ts'

/**
 * Where an artifact's objects go and how they are cached: the key prefix, the artifacts' CDN
 * Cache-Control (cdn-cache.ts), and the registered kinds, which name each file's alias spellings,
 * media type and own headers (an asset's Cache-Control).
 */
export interface BucketLayout {
  prefix: string
  cacheControl: string
  kinds: Pick<Catalogue, 'aliasesOf' | 'contentType' | 'headers'>
}

/** One object of the bucket: its key, the CACHE_DIR-relative file holding its bytes, and its headers. */
export interface MirrorObject {
  key: string
  file: string
  headers: Record<string, string>
}

const ENCODING: Record<(typeof SIDECARS)[number]['ext'], string> = { '.br': 'br', '.gz': 'gzip' }

/**
 * The objects one artifact is in the bucket, keyed like CACHE_DIR (`{prefix}{path}`, so `mc mirror`
 * of the bucket is a CACHE_DIR Caddy serves as it is): the main file with the Content-Type and
 * Cache-Control Caddy and the API answer it with, each precompressed copy under the same key plus
 * `.br`/`.gz` with its Content-Encoding, and the same again for every alias spelling (a bucket has
 * no symlinks, so an alias is a copy; `?language=en` spellings only, so at most one per artifact).
 */
export function objectsOf(path: string, { prefix, cacheControl, kinds }: BucketLayout): MirrorObject[] {
  const names = [path, ...kinds.aliasesOf(path)]
  const base = { 'Content-Type': kinds.contentType(path), 'Cache-Control': kinds.headers(path)['cache-control'] ?? cacheControl }
  return names.flatMap((name) => [
    { key: prefix + name, file: path, headers: base },
    ...SIDECARS.map((s) => ({ key: prefix + name + s.ext, file: path + s.ext, headers: { ...base, 'Content-Encoding': ENCODING[s.ext] } })),
  ])
}
