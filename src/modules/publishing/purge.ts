import { ARTIFACT_MARK } from './files.ts'
import type { ArtifactChange } from './engine.ts'

/**
 * URLs per `blog.cache.purge` event (and per purge-endpoint call): the most Cloudflare's
 * purge-by-URL accepts in one call on every plan, so one event is one CDN call.
 */
export const PURGE_BATCH = 100

/** The URL path and query Caddy answers from a file (`requestFile` backwards): `a/b/@q` → `/a/b?q`, `@` → `/`. */
function urlOfFile(file: string): string {
  const mark = file.lastIndexOf(ARTIFACT_MARK)
  const query = file.slice(mark + 1)
  return `/${file.slice(0, Math.max(0, mark - 1))}${query ? `?${query}` : ''}`
}

/**
 * Every spelling a CDN may hold for one file of this media type: the file's URL, and for an HTML
 * page also the other trailing-slash spelling (list pages are linked as `/en/category/x/`, posts
 * as `/en/blog/x`, and Caddy serves both from the same file).
 */
function spellingsOf(file: string, contentType: string): string[] {
  const url = urlOfFile(file)
  if (url === '/' || url.includes('?') || !contentType.startsWith('text/html')) return [url]
  return [url, `${url}/`]
}

/**
 * The public URLs whose bytes a pass changed: every file written (new bytes) or removed, with the
 * other URLs read from it (`?language=en`, no file of their own), on SITE_URL (the API's reads and the site's pages share that
 * origin). Files whose bytes were already there ('unchanged', 'copied') are not named. Pure: the order is
 * the pass's, each URL once.
 */
export function purgeUrls(siteUrl: string, changes: readonly ArtifactChange[]): string[] {
  const urls = new Set<string>()
  for (const change of changes) {
    // Absent before and after: no CDN holds bytes of it. Copied: the bytes were already there.
    // Unserved (a redirect shard's index): no URL reads the file, only the servers do.
    if (change.outcome === 'absent' || change.outcome === 'copied' || !change.served) continue
    for (const url of [...spellingsOf(change.path, change.contentType), ...change.spellings]) urls.add(siteUrl + url)
  }
  return [...urls]
}
