import { API } from '../artifacts/paths.ts'
import { SITE_TOP } from '../site/targets.ts'

/**
 * Where an old URL's redirect lives on disk, the one place that knows it (Bun reads it, the
 * Caddyfile's `@moved` route mirrors it). Old URLs are data, not pages: they are grouped in
 * **shards**, a folder per old path's parent and the last two characters of its last segment (or
 * of its query), so no folder holds more than a slice of a site's old URLs and a post's five old
 * URLs add files, not folders:
 *
 *   /2013/01/11/hello/  ->  shard 2013/01/11/@lo  ->  _moved/2013/01/11/@lo/hello@~en~blog~hello~
 *   /hello/             ->  shard @lo             ->  _moved/@lo/hello@~en~blog~hello~
 *   /?p=123             ->  shard @23             ->  _moved/@23/@p=123~en~blog~hello~
 *   /tag/x/             ->  shard tag/@x          ->  _moved/tag/@x/x@~en~tag~x~~           (target /en/tag/x/)
 *
 * A file under `_moved/` is named `{last segment}@{query}~{target}~`, the target's slashes spelled
 * `~`: Caddy, which cannot read a file into a header, answers `301` from a `file` matcher's glob
 * (`{last}@{query}~*~`) and a `map` on the name; the files are empty. Each shard is one artifact
 * of the pipeline, its index `_redirects/{shard}` (the shard's file names, one a line), and the
 * files under `_moved/{shard}/` follow the index when a pass changes it (files.ts): one manifest
 * row and job per shard, never per old URL.
 *
 * Requests never name these files (`/@` and `~` in a path are nobody's URL), so no server answers one as a page.
 */
export const REDIRECTS_TOP = '_redirects'
export const MOVED_TOP = '_moved'

/** One shard of old URLs (`2013/01/11/@lo`): its index is the artifact. */
export interface MovedShard {
  kind: 'redirect'
  shard: string
}

/** Folio's own first path segments: an old URL under them is Folio's to answer, never a redirect file's. */
const FOLIO_TOPS = new Set([...SITE_TOP, API.split('/')[1]!, 'admin', 'media', 'healthz', 'mcp', REDIRECTS_TOP, MOVED_TOP])
/** A path segment a folder or file name can carry: no `@` or `~` (they split a name), no leading dot. */
const SEGMENT = /^[^@.~/\\][^@~/\\]{0,199}$/
const SHARD_MARK = /^@[^@~/\\]{1,2}$/
const QUERY = /^[a-z0-9_=-]*$/
const TARGET = /^(\/[a-z0-9._-]+)*\/?$/
/** The longest file name Linux file systems take. */
const MAX_NAME = 255

/** An old URL's shard and its file's name without the target, or null when no file can stand for it. */
function placeOf(from: string): { shard: string; stem: string } | null {
  const mark = from.indexOf('?')
  const path = mark < 0 ? from : from.slice(0, mark)
  const query = mark < 0 ? '' : from.slice(mark + 1)
  const segments = path === '/' ? [] : path.slice(1).split('/')
  if (!path.startsWith('/') || !QUERY.test(query) || !segments.every((s) => SEGMENT.test(s))) return null
  if (segments.length && FOLIO_TOPS.has(segments[0]!)) return null
  const last = segments.pop() ?? ''
  const tail = query || last
  if (!tail) return null
  return { shard: [...segments, `@${tail.slice(-2)}`].join('/'), stem: `${last}@${query}~` }
}

/** The shard an old URL (as `import_redirects` keys it: `redirectKey`) belongs to, or null when no file can stand for it. */
export const shardOf = (from: string): string | null => placeOf(from)?.shard ?? null

/** The name of an old URL's file in its shard's folder once it moved to `to`, or null when no file can stand for it. */
export function movedName(from: string, to: string): string | null {
  const place = placeOf(from)
  if (!place || !TARGET.test(to) || to === '') return null
  const name = `${place.stem}${to.slice(1).replaceAll('/', '~')}~`
  return name.length > MAX_NAME ? null : name
}

export const indexFile = (shard: string): string => `${REDIRECTS_TOP}/${shard}`
export const movedFolder = (shard: string): string => `${MOVED_TOP}/${shard}`

/** The shard whose index a CACHE_DIR-relative file is, or null when it is none. */
export function parseIndex(file: string): MovedShard | null {
  if (!file.startsWith(`${REDIRECTS_TOP}/`)) return null
  const segments = file.slice(REDIRECTS_TOP.length + 1).split('/')
  const mark = segments.pop()!
  if (!SHARD_MARK.test(mark) || !segments.every((s) => SEGMENT.test(s))) return null
  if (segments.length && FOLIO_TOPS.has(segments[0]!)) return null
  return { kind: 'redirect', shard: file.slice(REDIRECTS_TOP.length + 1) }
}

/** Where Bun looks an old URL up: its shard's folder (CACHE_DIR-relative) and the start of its file's name. */
export function lookupOf(from: string): { folder: string; stem: string } | null {
  const place = placeOf(from)
  return place && { folder: movedFolder(place.shard), stem: place.stem }
}

/** Where an old URL moved, read from the names in its shard's folder (the one file `{stem}…~`), or null. */
export function locationIn(names: readonly string[], stem: string): string | null {
  const name = names.find((n) => n.startsWith(stem) && n.endsWith('~') && n.length > stem.length)
  return name ? `/${name.slice(stem.length, -1).replaceAll('~', '/')}` : null
}
