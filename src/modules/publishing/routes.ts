import { Elysia, t } from 'elysia'
import { contract } from '../../http/contract.ts'
import { Language } from '../../http/schema.ts'
import { envelopeResponse } from '../../http/envelope.ts'
import { NotFound } from '../../shared/errors.ts'
import { contentTypeOf, pathOf, type Target } from './paths.ts'
import { renderTarget, type RenderSource } from './render/artifact.ts'

/**
 * The non-envelope reads (spec §4.3), rendered by the same functions as their artifacts. They
 * answer only when no artifact is on disk yet (the static-first shell serves the file first).
 */
export const feedRoutes = (source: RenderSource) => {
  const raw = (target: Target) => {
    const body = renderTarget(source, target)
    if (body === null) throw new NotFound('sitemap shard', target.kind === 'sitemapShard' ? target.shard : 0, 'shard')
    return new Response(body, { headers: { 'content-type': contentTypeOf(pathOf(target)) } })
  }
  return new Elysia({ name: 'publishing.feeds', prefix: '/api/v1/blog' })
    .get('/rss.xml', ({ query }) => raw({ kind: 'rss', language: query.language ?? 'en' }), {
      query: t.Object({ language: t.Optional(Language) }),
      ...contract({ operationId: 'getRss', summary: 'RSS 2.0 feed of one language', tag: 'feeds', raw: 'application/xml' }),
    })
    .get('/sitemap.xml', () => raw({ kind: 'sitemap' }), {
      ...contract({
        operationId: 'getSitemap',
        summary: 'Sitemap (an index of shards past the shard size)',
        tag: 'feeds',
        raw: 'application/xml',
      }),
    })
    .get('/sitemap/:shard', ({ params }) => raw({ kind: 'sitemapShard', shard: Number(params.shard.slice(0, -4)) }), {
      params: t.Object({ shard: t.String({ pattern: '^[1-9][0-9]{0,9}\\.xml$', description: 'a shard number followed by .xml' }) }),
      ...contract({ operationId: 'getSitemapShard', summary: 'One sitemap shard', tag: 'feeds', raw: 'application/xml' }),
    })
    .get('/robots.txt', () => raw({ kind: 'robots' }), {
      ...contract({ operationId: 'getRobots', summary: 'Robots directives', tag: 'feeds', raw: 'text/plain' }),
    })
    .get('/openapi.json', () => raw({ kind: 'openapi' }), {
      ...contract({ operationId: 'getOpenapi', summary: 'This description (OpenAPI 3.0.3)', tag: 'feeds', raw: 'application/json' }),
    })
}

/** A backlog this old, or any failing render, makes the service report itself degraded. */
const DEGRADED_AFTER_MS = 30_000

/**
 * `GET /healthz`: the render backlog for Caddy or a monitor to poll. 200 `0000` when artifacts are
 * current; 503 `DEGRADED` while renders fail (a full or read-only CACHE_DIR) or the oldest due job
 * waited more than 30 s. Never cached. With the artifact mirror, `data.mirror` shows its backlog
 * and last error; a bucket that lags does not make this box unhealthy (it still serves every read).
 */
export const healthRoutes = (health: () => { failing: number; oldestDueMs: number | null; stale: boolean }, mirror?: () => object) =>
  new Elysia({ name: 'publishing.health' }).get('/healthz', () => {
    const render = health()
    // A rebuild after a cache invalidation is a long backlog by design: `stale`, whole files served meanwhile.
    const degraded = render.failing > 0 || (!render.stale && (render.oldestDueMs ?? 0) > DEGRADED_AFTER_MS)
    return envelopeResponse(
      {
        code: degraded ? 'DEGRADED' : '0000',
        message: degraded ? 'Public artifacts are not current: renders fail or lag (see data.render).' : 'success',
        data: { status: degraded ? 'degraded' : render.stale ? 'stale' : 'ok', render, ...(mirror ? { mirror: mirror() } : {}) },
      },
      degraded ? 503 : 200,
      { 'cache-control': 'no-store' },
    )
  })
