import { attachCall, callOf } from '../../http/call.ts'
import { conditional, contentEtag, isNotModified } from '../../http/conditional.ts'
import type { ArtifactCache, CachedArtifact } from './memory.ts'
import { pathOf, requestFile, requestTarget } from './paths.ts'
import { siteHeaders } from '../site/serve.ts'

export interface Handler {
  handle(request: Request): Promise<Response>
}

/** Shared caches may keep public reads but must revalidate them, so a publish is visible at once. */
export const PUBLIC_CACHE = 'public, no-cache'

/** The Cache-Control an artifact is served with: by the API (below), Caddy, and the artifact mirror's bucket. */
export const artifactCacheControl = (file: string): string => siteHeaders(file)['cache-control'] ?? PUBLIC_CACHE

/** URLs whose last-change time this process remembers for `Last-Modified` of answers that are not artifacts. */
const REMEMBERED = 10_000

/** The path and raw query of a request URL, by string search rather than a full URL parse. */
function splitUrl(url: string): { pathname: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const mark = url.indexOf('?', start)
  return mark < 0 ? { pathname: url.slice(start), query: '' } : { pathname: url.slice(start, mark), query: url.slice(mark + 1) }
}

/** An artifact's answer from memory: headers precomputed, a bodiless 304 when the client's copy is current. */
function artifactAnswer(request: Request, file: string, entry: CachedArtifact): Response {
  Object.assign(callOf(request), { code: '0000', message: 'success' })
  const validators = { etag: entry.etag, lastModified: new Date(entry.lastModifiedMs) }
  if (isNotModified(request.headers, validators))
    return new Response(null, { status: 304, headers: { etag: entry.etag, 'last-modified': entry.lastModified, 'cache-control': PUBLIC_CACHE } })
  const headers = {
    'content-type': entry.contentType,
    'cache-control': PUBLIC_CACHE,
    etag: entry.etag,
    'last-modified': entry.lastModified,
    ...siteHeaders(file),
  }
  return new Response(request.method === 'HEAD' ? null : entry.bytes, { headers })
}

/**
 * Anonymous reads through the API itself (the embedded default, or whatever Caddy proxies):
 * a read that has a pre-rendered artifact is answered from the artifact cache (memory, kept
 * current by the renderer) with Caddy's validators for the same file, so both paths give the
 * same bytes and the same ETag. The file the URL names as spelled (`{path}/@{query}`, what
 * Caddy looks for) is tried first, with no URL parsing; other spellings go through
 * `requestTarget`; any other successful GET gets a content
 * ETag and a Last-Modified of when this process first saw those bytes at that URL. Both honour
 * If-None-Match / If-Modified-Since with a bodiless 304. Answers marked `no-store` (the
 * state-changing GETs) or carrying their own ETag (media) pass untouched.
 */
export function staticFirst(app: Handler, cache: ArtifactCache): Handler {
  const lastChange = new Map<string, { etag: string; since: Date }>()

  function changedAt(key: string, etag: string): Date {
    const known = lastChange.get(key)
    if (known?.etag === etag) return known.since
    if (lastChange.size >= REMEMBERED) lastChange.delete(lastChange.keys().next().value!)
    const since = new Date(Math.floor(Date.now() / 1000) * 1000)
    lastChange.delete(key)
    lastChange.set(key, { etag, since })
    return since
  }

  return {
    async handle(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return app.handle(request)
      const { pathname, query } = splitUrl(request.url)
      const named = requestFile(pathname, query)
      const entry = named === null ? null : cache.get(named)
      if (entry) return artifactAnswer(request, named!, entry)
      const url = new URL(request.url)
      const target = requestTarget(url)
      const canonical = target && pathOf(target)
      const artifact = canonical && canonical !== named ? cache.get(canonical) : null
      if (artifact) return artifactAnswer(request, canonical!, artifact)
      // Routes are declared for GET; a HEAD is answered as the GET without its body.
      const get = request.method === 'HEAD' ? new Request(request.url, { method: 'GET', headers: request.headers }) : request
      if (get !== request) attachCall(get, callOf(request))
      const response = await app.handle(get)
      // Answers that bring their own validators (media files: content-hash ETags, immutable) or
      // must not be stored pass untouched, never buffered and hashed again.
      const own = response.headers.has('etag') || /no-store/i.test(response.headers.get('cache-control') ?? '')
      if (response.status !== 200 || own) return get === request ? response : new Response(null, response)
      const bytes = new Uint8Array(await response.arrayBuffer())
      const etag = contentEtag(bytes)
      const answer = new Response(bytes, response)
      if (!answer.headers.has('cache-control')) answer.headers.set('cache-control', PUBLIC_CACHE)
      return conditional(request, answer, { etag, lastModified: changedAt(url.pathname + url.search, etag) })
    },
  }
}
