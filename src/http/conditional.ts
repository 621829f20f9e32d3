/**
 * HTTP validators (RFC 9110 §8.8, §13) for anonymous reads. Two schemes, chosen per answer:
 * - an answer that is a pre-rendered artifact gets the validators Caddy's `file_server` gives
 *   the same file (ETag = mtime seconds and size in base 36, Last-Modified = mtime), so a client
 *   may switch between Caddy and the API and still revalidate; the writer guarantees that a new
 *   version of a file always gets a later mtime second, which makes that ETag change with it;
 * - any other answer gets a strong ETag hashed from its bytes.
 */
export interface Validators {
  etag: string
  lastModified: Date
}

/** Caddy 2.6's ETag of a file (fileserver `calculateEtag`): `"` + base36(mtime s) + base36(size) + `"`. */
export const fileEtag = (mtimeMs: number, size: number): string => `"${Math.floor(mtimeMs / 1000).toString(36)}${size.toString(36)}"`

/** A strong ETag of the bytes: 128 bits of SHA-256, base64url. */
export function contentEtag(bytes: Uint8Array | string): string {
  const hash = new Bun.CryptoHasher('sha256').update(bytes).digest()
  return `"${Buffer.from(hash.subarray(0, 16)).toString('base64url')}"`
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '')

/** Weak comparison of an `If-None-Match` header with an ETag (RFC 9110 §13.1.2); `*` matches any. */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true
  return header.split(',').some((tag) => opaque(tag) === opaque(etag))
}

/**
 * Whether the client's copy is current: `If-None-Match` decides when present (weak comparison,
 * as RFC 9110 §13.1.2 asks for GET), else `If-Modified-Since` at one-second resolution.
 */
export function isNotModified(headers: Headers, validators: Validators): boolean {
  const match = headers.get('if-none-match')
  if (match !== null) return matchesIfNoneMatch(match, validators.etag)
  const since = Date.parse(headers.get('if-modified-since') ?? '')
  return !Number.isNaN(since) && Math.floor(validators.lastModified.getTime() / 1000) * 1000 <= since
}

/** Sets the validators on a 200 answer, or turns it into a bodiless 304 when the client's copy is current. */
export function conditional(request: Request, response: Response, validators: Validators): Response {
  const headers = new Headers(response.headers)
  headers.set('etag', validators.etag)
  headers.set('last-modified', validators.lastModified.toUTCString())
  if (!isNotModified(request.headers, validators))
    return new Response(request.method === 'HEAD' ? null : response.body, { status: response.status, headers })
  for (const name of ['content-length', 'content-type', 'content-encoding']) headers.delete(name)
  return new Response(null, { status: 304, headers })
}
