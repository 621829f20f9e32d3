/**
 * robots.txt (spec §4.3, a mirror of the site's own): everything public may be crawled, the
 * admin API may not, and crawlers find the posts through the sitemap.
 */
export function renderRobots(sitemapUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/admin/', '', `Sitemap: ${sitemapUrl}`, ''].join('\n')
}
