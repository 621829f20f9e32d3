import type { Db } from '../db/client.ts'
import { sessionOf } from '../modules/people/sessions.ts'
import { scopesOf } from '../modules/people/roles.ts'
import { SESSION_ABSOLUTE_DAYS } from '../modules/people/sessions.ts'
import type { Caller } from '../modules/tokens/tokens.ts'
import type { Clock } from '../shared/time.ts'

/**
 * The spec's side-effecting GET endpoints stay token-only: a cookie rides along on any
 * top-level navigation, so a link elsewhere must never publish or delete through it.
 */
export const TOKEN_ONLY_PATHS: readonly string[] = ['/api/v1/blog/posts/operate', '/api/v1/blog/posts/delete']

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** How the console's cookie is named and sent: `__Host-` and `Secure` when the site is https. */
export interface CookiePolicy {
  name: string
  secure: boolean
}

export const cookiePolicy = (siteUrl: string): CookiePolicy =>
  siteUrl.startsWith('https:') ? { name: '__Host-folio_session', secure: true } : { name: 'folio_session', secure: false }

/** The `Set-Cookie` value that hands the browser a session (HttpOnly, SameSite=Strict, host-only, path /). */
export const sessionCookie = (policy: CookiePolicy, secret: string): string =>
  `${policy.name}=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_ABSOLUTE_DAYS * 86_400}${policy.secure ? '; Secure' : ''}`

export const clearedCookie = (policy: CookiePolicy): string =>
  `${policy.name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${policy.secure ? '; Secure' : ''}`

/** The value of cookie `name` in a request's Cookie header, or null. */
export function cookieValue(headers: Headers, name: string): string | null {
  const header = headers.get('cookie')
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return null
}

/** The caller a session cookie names, or null; never on the token-only GETs. */
export function sessionCaller(db: Db, clock: Clock, policy: CookiePolicy) {
  return (request: Request): Caller | null => {
    const secret = cookieValue(request.headers, policy.name)
    if (!secret) return null
    if (TOKEN_ONLY_PATHS.includes(new URL(request.url).pathname)) return null
    const session = sessionOf(db, secret, clock())
    if (!session) return null
    return { tokenId: null, name: session.name, scopes: scopesOf(session.role), session }
  }
}

/**
 * Whether a state-changing request made without a token came from another site: the browser's
 * `Sec-Fetch-Site` must say same-origin, or (older browsers) `Origin` must be this host. A
 * request with neither is refused too: browsers send one of them on every POST.
 */
export function crossSite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false
  const fetchSite = request.headers.get('sec-fetch-site')
  if (fetchSite !== null) return fetchSite !== 'same-origin'
  const origin = request.headers.get('origin')
  if (origin === null) return true
  try {
    return new URL(origin).host !== (request.headers.get('host') ?? new URL(request.url).host)
  } catch {
    return true
  }
}

/** The console's own paths: their writes are checked for another site's origin even before sign-in. */
export const isConsolePath = (request: Request): boolean => new URL(request.url).pathname.startsWith('/admin/')
