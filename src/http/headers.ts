import { IFRAME_HOSTS } from '../shared/iframe-hosts.ts'

/**
 * The response headers Folio sets for safety, in one place (docs/api.md, "Response headers").
 * Caddy sets the same pair on the answers it serves from disk (Caddyfile `header` block).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // A JSON answer holding user text is never sniffed into HTML or script.
  'X-Content-Type-Options': 'nosniff',
  // Links out of the API or site tell the target the origin, never the path or query.
  'Referrer-Policy': 'strict-origin-when-cross-origin',
}

/** Answers to a token, and admin paths even when refused: never kept by any cache, shared or private. */
export const PRIVATE_CACHE = 'private, no-store'

const PRIVATE_PATHS = ['/api/admin/', '/api/v1/blog/resources/', '/admin/']

/** Whether an answer must carry PRIVATE_CACHE: the caller presented a token, or the path is an admin or resource one. */
export const isPrivateAnswer = (path: string, tokenPresented: boolean): boolean =>
  tokenPresented || PRIVATE_PATHS.some((prefix) => path.startsWith(prefix))

export interface PageSources {
  /** Extra origins images and media may load from (MEDIA_URL's origin when media live elsewhere). */
  media?: readonly string[]
  /** Origins of embedded players the sanitizer lets through. */
  frames?: readonly string[]
}

/** The sanitizer's iframe hosts: the only frames a page may show. */
const PLAYER_ORIGINS = IFRAME_HOSTS.map((host) => `https://${host}`)

/**
 * Headers for an HTML page of the public site: a Content-Security-Policy that runs only the
 * site's own scripts (no inline script, no eval, no plugins, no <base> rewrites, forms post only
 * to the site) and refuses to be framed, plus the legacy X-Frame-Options for old browsers.
 */
export function htmlPageHeaders(sources: PageSources = {}): Record<string, string> {
  const media = ["'self'", 'https:', ...(sources.media ?? [])].join(' ')
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${media} data:`,
    `media-src ${media}`,
    `frame-src ${[...PLAYER_ORIGINS, ...(sources.frames ?? [])].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
  return { ...SECURITY_HEADERS, 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY' }
}
