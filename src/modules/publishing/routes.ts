import { Elysia, t } from 'elysia'
import { Language } from '../../http/schema.ts'
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
    })
    .get('/sitemap.xml', () => raw({ kind: 'sitemap' }))
    .get('/sitemap/:shard', ({ params }) => raw({ kind: 'sitemapShard', shard: Number(params.shard.slice(0, -4)) }), {
      params: t.Object({ shard: t.String({ pattern: '^[1-9][0-9]{0,9}\\.xml$', description: 'a shard number followed by .xml' }) }),
    })
    .get('/robots.txt', () => raw({ kind: 'robots' }))
    .get('/openapi.json', () => raw({ kind: 'openapi' }))
}
