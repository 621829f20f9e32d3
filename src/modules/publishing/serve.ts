import { attachCall, callOf } from '../../http/call.ts'
import { conditional, contentEtag, isNotModified } from '../../http/conditional.ts'
import { SECURITY_HEADERS } from '../../http/headers.ts'
import { PUBLIC_CACHE, type Handler } from '../../http/handler.ts'
import { splitUrl } from '../../http/request-url.ts'
import type { Catalogue } from './catalogue.ts'
import type { ArtifactCache, CachedArtifact, HeadersOf } from './memory.ts'
import { requestFile } from './files.ts'

/** URLs whose last-change time this process remembers for `Last-Modified` of answers that are not artifacts. */
const REMEMBERED = 10_000

/** Every answer's safety headers (http/headers.ts), spelled as the records below spell theirs. */
const SAFETY = Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]))

/**
 * The headers of an artifact's answers with this Cache-Control, made once per version of its file
 * (memory.ts): the 200 answer's full set (its kind's content type and headers), and the 304's
 * validators. The shell adds only X-Request-Id to them.
 */
export const artifactHeaders =
  (cacheControl: string, kinds: Pick<Catalogue, 'contentType' | 'headers'>): HeadersOf =>
  (file, { etag, lastModified }) => {
    const validators = { etag, 'last-modified': lastModified, 'cache-control': cacheControl }
    return {
      ok: { ...SAFETY, 'content-type': kinds.contentType(file), ...validators, ...kinds.headers(file) },
      notModified: { ...SAFETY, ...validators },
    }
  }

/** An artifact's answer from memory, made once per version: a bodiless 304 when the client's copy is current. */
function artifactAnswer(request: Request, entry: CachedArtifact): Response {
  const { ok, head, notModified } = entry.answers
  if (isNotModified(request.headers, entry.validators)) return notModified.clone()
  return (request.method === 'HEAD' ? head : ok).clone()
}

/**
 * The query a request's file is looked up by, as Caddy's `{read_query}` gives it: the query as
 * sent but for the kinds' spelled-out defaults (artifacts/paths.ts, `readQuery`), so Caddy and the
 * API name the same file for every spelling that has one.
 */
export type ReadQuery = (pathname: string, query: string) => string

/**
 * The shell's fast path for an anonymous GET/HEAD (http/server.ts): the answer of the artifact the
 * URL names (`{path}/@{read query}`, what Caddy looks for), or null when it names none.
 */
export function artifactRead(
  cache: ArtifactCache,
  readQuery: ReadQuery,
): (request: Request, pathname: string, query: string) => Response | null {
  return (request, pathname, query) => {
    const file = requestFile(pathname, readQuery(pathname, query))
    const entry = file === null ? null : cache.get(file)
    return entry && artifactAnswer(request, entry)
  }
}

/** An artifact's answer inside the general shell, which logs the call's outcome. */
function answered(request: Request, entry: CachedArtifact): Response {
  Object.assign(callOf(request), { code: '0000', message: 'success' })
  return artifactAnswer(request, entry)
}

/**
 * Anonymous reads through the API itself (the embedded default, or whatever Caddy proxies):
 * a read that has a pre-rendered artifact is answered from the artifact cache (memory, kept
 * current by the renderer) with Caddy's validators for the same file, so both paths give the
 * same bytes and the same ETag. The file the URL names (`{path}/@{read query}`, what Caddy looks
 * for) is tried first, with no URL parsing; other spellings go through
 * the artifact kinds (`canonical`); any other successful GET gets a content
 * ETag and a Last-Modified of when this process first saw those bytes at that URL. Both honour
 * If-None-Match / If-Modified-Since with a bodiless 304. Answers marked `no-store` (the
 * state-changing GETs) or carrying their own ETag (media) pass untouched.
 */
export function staticFirst(app: Handler, cache: ArtifactCache, canonical: (url: URL) => string | null, readQuery: ReadQuery): Handler {
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
      const named = requestFile(pathname, readQuery(pathname, query))
      const entry = named === null ? null : cache.get(named)
      if (entry) return answered(request, entry)
      const url = new URL(request.url)
      const file = canonical(url)
      const artifact = file && file !== named ? cache.get(file) : null
      if (artifact) {
        // Another spelling of the read: no purge names it, so a CDN must revalidate it.
        const answer = answered(request, artifact)
        answer.headers.set('cache-control', PUBLIC_CACHE)
        return answer
      }
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
