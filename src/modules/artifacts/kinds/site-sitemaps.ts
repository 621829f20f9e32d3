import type { BlogShare } from './share.ts'
import { siteStamp, targetKind } from './target-kind.ts'

/** Whether a URL path is one of the site's sitemaps or its robots.txt. */
const isSiteSitemap = (path: string): boolean => path === 'sitemap.xml' || path === 'robots.txt' || path.startsWith('sitemap/')

/**
 * The site's sitemaps: the index `/sitemap.xml`, the posts' shards, the category, tag, author
 * and product pages' shards, the standalone pages' sitemap, and the `robots.txt` naming the index.
 */
export const siteSitemapArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'site-sitemaps',
    owns: ['page.sitemap', 'page.sitemapPosts', 'page.sitemapPages', 'page.sitemapStandalone', 'page.robots'],
    tops: ['sitemap', 'sitemap.xml', 'robots.txt'],
    claims: isSiteSitemap,
    stamp: () => siteStamp(share),
  })
