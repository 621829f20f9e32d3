import type { Queryable } from '../../db/client.ts'
import { PUBLIC_CACHE, type Handler } from '../../http/handler.ts'
import { redirectFor } from './redirects.ts'

/** A query naming a thing on a WordPress site (`/?p=123`, `/?page_id=2`, `/?feed=rss2`): looked up before the site answers. */
const NAMING_QUERY = /[?&](p|page_id|cat|tag|author|feed)=/

/**
 * Old URLs of imported sites answer 301 to their new home (import_redirects): a read the site
 * answers 404 is looked up, as is one whose query names a WordPress thing (the home page would
 * answer it otherwise). Behind Caddy the same answer comes back, since Caddy hands every read it
 * has no artifact for to this process.
 */
export function withImportRedirects(inner: Handler, db: Queryable): Handler {
  const moved = (url: URL): Response | null => {
    const to = redirectFor(db, url.pathname + url.search)
    return to ? new Response(null, { status: 301, headers: { location: to, 'cache-control': PUBLIC_CACHE } }) : null
  }
  return {
    async handle(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return inner.handle(request)
      const url = new URL(request.url)
      if (url.pathname.startsWith('/api/')) return inner.handle(request)
      if (url.search && NAMING_QUERY.test(url.search)) return moved(url) ?? inner.handle(request)
      const response = await inner.handle(request)
      return response.status === 404 ? (moved(url) ?? response) : response
    },
  }
}
