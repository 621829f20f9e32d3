import { apiFeedArtifacts } from './modules/artifacts/kinds/api-feeds.ts'
import { apiReadArtifacts } from './modules/artifacts/kinds/api-reads.ts'
import { llmsArtifacts } from './modules/artifacts/kinds/llms.ts'
import { blogShare, type BlogSource } from './modules/artifacts/kinds/share.ts'
import { siteFeedArtifacts } from './modules/artifacts/kinds/site-feeds.ts'
import { sitePageArtifacts } from './modules/artifacts/kinds/site-pages.ts'
import { siteSitemapArtifacts } from './modules/artifacts/kinds/site-sitemaps.ts'
import { twinArtifacts } from './modules/artifacts/kinds/twins.ts'
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { ArtifactKind } from './modules/publishing/kinds.ts'
import { renderThreads } from './modules/publishing/render-pool.ts'
import { buildSearchScript } from './modules/site-search/bundle.ts'
import type { Logger } from './shared/log.ts'
import { redirectArtifacts } from './modules/redirects/kind.ts'
import { siteSearchArtifacts } from './modules/site-search/index.tsx'

export type { BlogSource }

/** What the artifact kinds are made from: the blog's options (its `openapi` may be set after), the search script built at start. */
export interface ArtifactKindsOptions {
  blog: BlogSource
  searchScript: string
}

/**
 * Every artifact kind, in one list: what the server registers (`src/main.ts`) and what any other
 * process rendering artifacts must build alike. Order matters in two ways: a kind's plan sees what
 * the kinds before it planned, and the first kind claiming a file answers its media type; the
 * site's pages come last, answering for any file no kind claims (docs/publishing.md).
 */
export function artifactKinds({ blog, searchScript }: ArtifactKindsOptions): ArtifactKind[] {
  const share = blogShare(blog)
  return [
    siteSearchArtifacts({ siteUrl: blog.siteUrl, script: searchScript }),
    redirectArtifacts(),
    apiReadArtifacts(share),
    apiFeedArtifacts(share),
    siteFeedArtifacts(share),
    siteSitemapArtifacts(share),
    twinArtifacts(share),
    llmsArtifacts(share),
    sitePageArtifacts(share),
  ] as ArtifactKind[]
}

/**
 * The kinds from one flat value (the blog's options beside the search script): what the server
 * hands its render threads as plain data (src/render-thread.ts), so both build the same list.
 */
export type KindOptions = BlogSource & { searchScript: string }

export const kindsOf = ({ searchScript, ...blog }: KindOptions): ArtifactKind[] => artifactKinds({ blog, searchScript })

/**
 * The blog's options, the kinds made from them, and the render threads (RENDER_WORKERS) that make
 * the same kinds from the same options as plain data (src/render-thread.ts). The kinds get the
 * `blog` object itself, not a copy: they read the OpenAPI document the composition root sets on
 * it once the routes exist; the threads are sent a fresh copy whenever a value changed.
 */
export async function composeKinds(config: Config, db: Db, dbFile: string, log: Logger, servesReads = false) {
  const blog = {
    db,
    siteUrl: config.siteUrl,
    sitemapShardSize: config.sitemapShardSize,
    mediaUrl: config.mediaUrl,
    openapi: '',
    engagementRefreshMs: config.engagementRefreshSeconds * 1000,
    webSubHub: config.webSubHub,
    searchScript: await buildSearchScript(),
  }
  const kindOptions = (): KindOptions => {
    const { db: _db, ...plain } = blog
    return plain
  }
  const renderer = config.renderWorkers
    ? renderThreads({
        entry: new URL('./render-thread.ts', import.meta.url),
        size: config.renderWorkers,
        dbFile,
        kindOptions,
        log,
        // The server's threads yield to its reads; a CLI command's run at the process's priority.
        background: servesReads,
      })
    : undefined
  return { blog, kinds: artifactKinds({ blog, searchScript: blog.searchScript }), renderer }
}
