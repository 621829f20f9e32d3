import { join } from 'node:path'
import { callOf } from '../../http/call.ts'
import { conditional, fileEtag } from '../../http/conditional.ts'
import { PUBLIC_CACHE, readArtifact, type Handler } from '../publishing/serve.ts'
import { answerSitePath, type SiteSource } from './render.tsx'
import { siteContentType, sitePathOf, siteTargetOfUrl } from './targets.ts'

/**
 * Headers of every HTML page, by Caddy and by the API alike: a Content-Security-Policy that
 * allows only the site's own stylesheet and script (JSON-LD is data, never run), images from
 * anywhere (covers may live on a media host), no framing. The Caddyfile repeats this list.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' https: http: data:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
}

/** Hashed asset names never change content: a year, immutable. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'

function headersFor(path: string): Record<string, string> {
  const type = siteContentType(path)
  return {
    'content-type': type,
    'cache-control': path.startsWith('assets/') ? ASSET_CACHE : PUBLIC_CACHE,
    ...(type.startsWith('text/html') ? PAGE_HEADERS : { 'x-content-type-options': 'nosniff' }),
  }
}

/**
 * The public site through the API itself (the embedded default, or what Caddy passes on): a page
 * that has an artifact is answered from the file with Caddy's validators; any other path the
 * app does not know (it answers 404) gets the site's live answer — a noindex post's page, a
 * deeper list page, an old slug's 301 or the HTML 404 page — so `/media/…` and the API keep
 * their own routes.
 */
export function serveSite(app: Handler, cacheDir: string, source: SiteSource): Handler {
  return {
    async handle(request) {
      const url = new URL(request.url)
      if ((request.method !== 'GET' && request.method !== 'HEAD') || url.pathname.startsWith('/api/')) return app.handle(request)
      const target = siteTargetOfUrl(url.pathname)
      const file = target && sitePathOf(target)
      const artifact = file && readArtifact(join(cacheDir, file))
      if (file && artifact) {
        Object.assign(callOf(request), { code: '0000', message: 'success' })
        const validators = { etag: fileEtag(artifact.mtimeMs, artifact.bytes.length), lastModified: new Date(artifact.mtimeMs) }
        return conditional(request, new Response(artifact.bytes, { headers: headersFor(file) }), validators)
      }
      const response = await app.handle(request)
      if (response.status !== 404) return response
      const answer = answerSitePath(source, url.pathname, target)
      Object.assign(callOf(request), { code: answer.status === 404 ? 'NOT_FOUND' : '0000', message: answer.status === 404 ? 'not found' : 'success' })
      if (answer.status === 301) return new Response(null, { status: 301, headers: { location: answer.location, 'cache-control': PUBLIC_CACHE } })
      if (answer.status === 404)
        return new Response(request.method === 'HEAD' ? null : answer.body, { status: 404, headers: { ...headersFor(''), 'cache-control': 'no-cache' } })
      // Validators are added by `staticFirst` around this handler, as for every answer the API renders.
      return new Response(answer.body, { headers: headersFor(sitePathOf(answer.target)) })
    },
  }
}
