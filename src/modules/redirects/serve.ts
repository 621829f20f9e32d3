import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { PUBLIC_CACHE, type Handler } from '../../http/handler.ts'
import { redirectKey } from '../import/redirects.ts'
import { locationIn, lookupOf } from './layout.ts'

/** A query naming a thing on a WordPress site (`/?p=123`, `/?page_id=2`, `/?feed=rss2`): looked up before the site answers. */
const NAMING_QUERY = /[?&](p|page_id|cat|tag|author|feed)=/

/**
 * Old URLs of imported sites answer 301 to their new home from their redirect artifacts
 * (layout.ts), as Caddy answers them from the same files: a read the site answers 404 is looked
 * up (its shard's folder listed), as is one whose query names a WordPress thing (the home page would answer it otherwise).
 * Looked up in any spelling Caddy misses (`/Slug`, `/slug?utm=x`), since the key is normalized.
 */
export function withRedirects(inner: Handler, cacheDir: string): Handler {
  const moved = (url: URL): Response | null => {
    const key = redirectKey(url.pathname + url.search)
    const at = key && lookupOf(key)
    if (!at) return null
    let names: string[]
    try {
      names = readdirSync(join(cacheDir, at.folder))
    } catch {
      return null
    }
    const to = locationIn(names, at.stem)
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
