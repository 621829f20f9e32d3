import type { Artifact } from '../publishing/kinds.ts'
import { urlPathOf, type SiteTarget } from './targets.ts'

/** Where the IndexNow key file is served: `/{key}.txt` at the site root (docs/discovery.md). */
export const indexNowKeyPath = (key: string) => `/${key}.txt`

/** What a render pass reports of one artifact (publishing/engine.ts `ArtifactChange`), as far as discovery reads it. */
interface Changed {
  target: Artifact | null
  contentType: string
  outcome: string
}

/** The site's pages a search engine indexes: not the Markdown twins, feeds, sitemaps or assets. */
const PAGE_KINDS: ReadonlySet<string> = new Set(['page.post', 'page.list', 'page.product', 'page.standalone', 'page.root'])

/** The site's artifacts of the given kinds whose bytes a pass wrote or removed, each at its one public URL. */
function changedUrls(siteUrl: string, changes: readonly Changed[], kinds: ReadonlySet<string>): string[] {
  const urls = new Set<string>()
  for (const change of changes) {
    // Absent before and after: nobody has seen it. Copied: the bytes were already there.
    if (change.outcome === 'absent' || change.outcome === 'copied' || !change.target || !kinds.has(change.target.kind)) continue
    urls.add(siteUrl + urlPathOf(change.target as SiteTarget))
  }
  return [...urls]
}

/**
 * The public HTML pages of the site a pass changed (written or removed), at the URL the site links
 * them by (`/en/category/x/`, `/en/blog/x`): what IndexNow is told. Never the API's JSON, the
 * redirects (another kind) or the search index files (another kind).
 */
export const changedPages = (siteUrl: string, changes: readonly Changed[]): string[] => changedUrls(siteUrl, changes, PAGE_KINDS)

/** The site's feeds (RSS, Atom, JSON Feed) a pass changed: what the WebSub hub is pinged for. */
export const changedFeeds = (siteUrl: string, changes: readonly Changed[]): string[] =>
  changedUrls(siteUrl, changes, new Set(['page.feed']))
