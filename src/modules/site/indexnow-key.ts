import { Elysia } from 'elysia'
import { indexNowKeyPath } from './discovery.ts'

/**
 * `GET /{INDEXNOW_KEY}.txt`: the key file that proves to IndexNow the submissions come from the
 * site's owner (docs/discovery.md); its body is the key. Caddy hands the read to the API like any
 * path without an artifact, so both answer it. No route at all while IndexNow is off.
 */
export function indexNowKeyRoutes(key: string | null) {
  const routes = new Elysia({ name: 'site.indexnow-key' })
  if (!key) return routes
  return routes.get(
    indexNowKeyPath(key),
    () =>
      new Response(key, {
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'public, max-age=3600',
          'x-content-type-options': 'nosniff',
        },
      }),
  )
}
