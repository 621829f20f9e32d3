import { API } from '../artifacts/paths.ts'
import { SITE_TOP } from '../site/targets.ts'

/**
 * Where an old URL's redirect artifact lives, the one place that knows it (Bun reads it, the
 * Caddyfile's `@moved` route mirrors it): under `_redirects/`, the old path's folder holds one file
 * `@{query}~{target}~`, the target's slashes spelled `~`. The file's name says where the URL moved,
 * so Caddy, which cannot read a file into a header, answers `301` from a `file` matcher's glob
 * (`@{query}~*~`, which no compressed copy `….br` matches) and a `map` on the name. Its bytes are
 * the target again, for people reading CACHE_DIR.
 *
 *   /2013/01/11/hello/  ->  _redirects/2013/01/11/hello/@~en~blog~hello~
 *   /?p=123             ->  _redirects/@p=123~en~blog~hello~
 *   /tag/x/             ->  _redirects/tag/x/@~en~tag~x~~          (target /en/tag/x/)
 *
 * Requests never name these files (`{path}/@{query}` has no `~`), so no server answers one as a page.
 */
export const REDIRECTS_TOP = '_redirects'

export interface Moved {
  kind: 'redirect'
  /** The old URL as `import_redirects` keys it (`redirectKey`): `/a/b` or `/?p=1`. */
  from: string
  /** The Folio path it answers 301 to. */
  to: string
}

/** Folio's own first path segments: an old URL under them is Folio's to answer, never an artifact's. */
const FOLIO_TOPS = new Set([...SITE_TOP, API.split('/')[1]!, 'admin', 'media', 'healthz', 'mcp', REDIRECTS_TOP])
const SEGMENT = /^[^@.~/\\][^/\\]{0,199}$/
const QUERY = /^[a-z0-9_=-]*$/
const TARGET = /^(\/[a-z0-9._-]+)*\/?$/
/** The longest file name Linux file systems take. */
const MAX_NAME = 255

const nameOf = (query: string, to: string) => `@${query}${to.replaceAll('/', '~')}~`

/** The folder (CACHE_DIR-relative) of an old URL's path, and its query; null when no file can stand for it. */
export function folderOf(from: string): { folder: string; query: string } | null {
  const mark = from.indexOf('?')
  const path = mark < 0 ? from : from.slice(0, mark)
  const query = mark < 0 ? '' : from.slice(mark + 1)
  const segments = path === '/' ? [] : path.slice(1).split('/')
  if (!path.startsWith('/') || !QUERY.test(query) || !segments.every((s) => SEGMENT.test(s))) return null
  if (segments.length && FOLIO_TOPS.has(segments[0]!)) return null
  return { folder: [REDIRECTS_TOP, ...segments].join('/'), query }
}

/** The artifact file of an old URL moved to `to`, or null when no file can stand for it (the URL is then not redirected). */
export function movedFile(from: string, to: string): string | null {
  const at = folderOf(from)
  if (!at || !TARGET.test(to) || to === '') return null
  const name = nameOf(at.query, to)
  return name.length > MAX_NAME ? null : `${at.folder}/${name}`
}

/** The artifact a CACHE_DIR-relative file holds, or null when it is none of these. */
export function parseMoved(file: string): Moved | null {
  if (!file.startsWith(`${REDIRECTS_TOP}/`)) return null
  const slash = file.lastIndexOf('/')
  const name = file.slice(slash + 1)
  const found = /^@([a-z0-9_=-]*)(~[^/]*)~$/.exec(name)
  if (!found) return null
  const path = `/${file.slice(REDIRECTS_TOP.length + 1, Math.max(REDIRECTS_TOP.length + 1, slash))}`
  const from = found[1] ? `${path}?${found[1]}` : path
  const moved: Moved = { kind: 'redirect', from, to: found[2]!.replaceAll('~', '/') }
  return movedFile(moved.from, moved.to) === file ? moved : null
}

/** Where an old URL moved, read from the names in its folder (the one file `@{query}~…~`), or null. */
export function locationIn(names: readonly string[], query: string): string | null {
  const prefix = `@${query}~`
  const name = names.find((n) => n.startsWith(prefix) && n.endsWith('~') && n.length > prefix.length)
  return name ? name.slice(prefix.length - 1, -1).replaceAll('~', '/') : null
}

/** The manifest prefix of every file standing for one old URL (whatever its target). */
export function filesPrefix(from: string): string | null {
  const at = folderOf(from)
  return at && `${at.folder}/@${at.query}~`
}
