import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { attachCall, callOf } from '../../http/call.ts'
import { conditional, contentEtag, fileEtag } from '../../http/conditional.ts'
import { contentTypeOf, pathOf, requestTarget } from './paths.ts'

export interface Handler {
  handle(request: Request): Promise<Response>
}

/** Shared caches may keep public reads but must revalidate them, so a publish is visible at once. */
export const PUBLIC_CACHE = 'public, no-cache'

/** URLs whose last-change time this process remembers for `Last-Modified` of answers that are not artifacts. */
const REMEMBERED = 10_000

export function readArtifact(file: string): { bytes: Buffer<ArrayBuffer>; mtimeMs: number } | null {
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return null
  }
  try {
    // One descriptor for stat and read: a rename in between cannot pair old validators with new bytes.
    const stat = fstatSync(fd)
    return stat.isFile() ? { bytes: readFileSync(fd), mtimeMs: stat.mtimeMs } : null
  } finally {
    closeSync(fd)
  }
}

/**
 * Anonymous reads through the API itself (the embedded default, or whatever Caddy proxies):
 * a read that has a pre-rendered artifact is answered from that file, with Caddy's validators,
 * so both paths give the same bytes and the same ETag; any other successful GET gets a content
 * ETag and a Last-Modified of when this process first saw those bytes at that URL. Both honour
 * If-None-Match / If-Modified-Since with a bodiless 304. Answers marked `no-store` (the
 * state-changing GETs) or carrying their own ETag (media) pass untouched.
 */
export function staticFirst(app: Handler, cacheDir: string): Handler {
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
      const url = new URL(request.url)
      const target = requestTarget(url)
      const artifact = target && readArtifact(join(cacheDir, pathOf(target)))
      if (target && artifact) {
        Object.assign(callOf(request), { code: '0000', message: 'success' })
        const headers = { 'content-type': contentTypeOf(pathOf(target)), 'cache-control': PUBLIC_CACHE }
        const validators = { etag: fileEtag(artifact.mtimeMs, artifact.bytes.length), lastModified: new Date(artifact.mtimeMs) }
        return conditional(request, new Response(artifact.bytes, { headers }), validators)
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
