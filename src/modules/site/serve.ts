import { htmlPageHeaders } from '../../http/headers.ts'
import { callOf } from '../../http/call.ts'
import type { LastRoute } from '../../http/app.ts'
import { PUBLIC_CACHE } from '../../http/handler.ts'
import { answerSitePath, type SiteSource } from './render.tsx'
import { siteContentType, sitePathOf, siteTargetOfUrl } from './targets.ts'

/**
 * Headers of every HTML page, by Caddy and by the API alike (http/headers.ts, `htmlPageHeaders`):
 * only the site's own stylesheet and script run (JSON-LD is data), images from anywhere (covers may
 * live on a media host, plain http included), the sanitizer's players as frames, no framing of the
 * page. The Caddyfile repeats the same Content-Security-Policy; test/site checks both agree.
 */
export const PAGE_HEADERS: Record<string, string> = Object.fromEntries(
  Object.entries(htmlPageHeaders({ media: ['http:'] })).map(([name, value]) => [name.toLowerCase(), value]),
)

/** Hashed asset names never change content: a year, immutable. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'

/** The headers a site artifact adds to its content type and validators (none for the API's own reads). */
export function siteHeaders(file: string): Record<string, string> {
  if (file.startsWith('api/')) return {}
  const page = siteContentType(file).startsWith('text/html')
  return {
    'x-content-type-options': 'nosniff',
    ...(page ? PAGE_HEADERS : {}),
    ...(file.startsWith('assets/') ? { 'cache-control': ASSET_CACHE } : {}),
  }
}

/**
 * The app's last route (`createApp`'s `lastRoute`): a GET outside `/api/` that no feature routes
 * is a site path no artifact holds (the embedded default, or what Caddy passes on). The site
 * renders it live — a noindex post's page, a deeper list page — or redirects an old slug, or
 * answers the HTML 404 page. Validators are added by `staticFirst` around the app, as for every
 * answer the API renders.
 */
export function siteLastRoute(source: SiteSource): LastRoute {
  return (request) => {
    const url = new URL(request.url)
    if (request.method !== 'GET' || url.pathname.startsWith('/api/')) return null
    const answer = answerSitePath(source, siteTargetOfUrl(url.pathname))
    Object.assign(
      callOf(request),
      answer.status === 404 ? { code: 'NOT_FOUND', message: 'not found' } : { code: '0000', message: 'success' },
    )
    if (answer.status === 301)
      return new Response(null, { status: 301, headers: { location: answer.location, 'cache-control': PUBLIC_CACHE } })
    if (answer.status === 404)
      return new Response(answer.body, {
        status: 404,
        headers: { 'content-type': siteContentType(''), 'cache-control': 'no-cache', ...siteHeaders('') },
      })
    const file = sitePathOf(answer.target)
    return new Response(answer.body, { headers: { 'content-type': siteContentType(file), ...siteHeaders(file) } })
  }
}
