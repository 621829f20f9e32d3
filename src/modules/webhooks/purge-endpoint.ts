import type { Config } from '../../config.ts'
import type { CachePurgePayload } from './events.ts'

/**
 * The body and headers of one purge-endpoint call from a `blog.cache.purge` payload: `generic`
 * sends `{"urls": [...]}`, `cloudflare` the purge-by-URL body `{"files": [...]}`; the configured
 * auth header rides along (docs/beyond-one-box.md shows CDN set-ups).
 */
export function purgeRequest(
  payload: string,
  purge: Pick<Config['purge'], 'format' | 'authHeader'>,
): { body: string; headers: Record<string, string> } {
  const { urls } = JSON.parse(payload) as CachePurgePayload
  const body = JSON.stringify(purge.format === 'cloudflare' ? { files: urls } : { urls })
  return { body, headers: purge.authHeader ? { [purge.authHeader.name]: purge.authHeader.value } : {} }
}
