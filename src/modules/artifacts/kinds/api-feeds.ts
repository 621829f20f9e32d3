import { API } from '../paths.ts'
import type { BlogShare } from './share.ts'
import { targetKind } from './target-kind.ts'

/** The URL paths of the API's feeds, sitemaps, robots and OpenAPI document. */
const API_FEED = /^api\/v1\/blog\/(rss\.xml|sitemap\.xml|sitemap\/[^/]*|robots\.txt|openapi\.json)$/

/**
 * The API's non-envelope reads (spec §4.3): an RSS feed per language, the sitemap (or its index
 * and shards), robots.txt and the OpenAPI document; writing a feed or a sitemap is what the
 * publish response reports as `rssUpdated` and `sitemapUpdated`.
 */
export const apiFeedArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'api-feeds',
    owns: ['rss', 'sitemap', 'sitemapShard', 'robots', 'openapi'],
    tops: [API.slice(1)],
    claims: (path) => API_FEED.test(path),
    effect: (t) => (t.kind === 'sitemap' || t.kind === 'sitemapShard' ? 'sitemap' : t.kind === 'rss' ? 'rss' : null),
    stamp: () => ({ siteUrl: share.source.siteUrl, shard: share.source.sitemapShardSize, openapi: share.source.openapi }),
  })
