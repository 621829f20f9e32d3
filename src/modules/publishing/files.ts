/**
 * The engine's file layout, the same for every artifact kind: an artifact's file is named after
 * the URL that reads it, `{URL path}/@{query}` under CACHE_DIR (the site's root page is the file
 * `@` itself), so Caddy needs no knowledge of the reads: it looks for `{path}/@{query}` and serves
 * it when present.
 */

/** Marks an artifact file: `{URL path}/@{query}`. Never part of a slug or a URL the API routes. */
export const ARTIFACT_MARK = '@'

/** The CACHE_DIR-relative file that answers `path` + `?query` (`path` absolute, no trailing slash). */
export const fileOf = (path: string, query: string): string => `${path.slice(1)}/${ARTIFACT_MARK}${query}`

/**
 * The file a request names, as Caddy's `try_files {path}/@{read_query}` builds it (`rawQuery`: the
 * query the file is looked up by, serve.ts `ReadQuery`), or null when the request cannot name one
 * (odd characters in the query). The API uses it as its fast path.
 */
export function requestFile(pathname: string, rawQuery: string): string | null {
  if (!/^[A-Za-z0-9=&]*$/.test(rawQuery) || pathname.includes('%')) return null
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.replace(/\/+$/, '') : pathname
  return path === '/' ? `${ARTIFACT_MARK}${rawQuery}` : fileOf(path, rawQuery)
}
