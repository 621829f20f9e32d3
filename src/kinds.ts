import { blogArtifacts, type BlogSource } from './modules/artifacts/blog.ts'
import type { ArtifactKind } from './modules/publishing/index.ts'
import { redirectArtifacts } from './modules/redirects/kind.ts'
import { siteSearchArtifacts } from './modules/site-search/index.tsx'

/**
 * What the artifact kinds are made from: plain data only, so a render thread
 * (src/render-thread.ts) makes the very kinds the server registers from the same values.
 */
export interface KindOptions extends BlogSource {
  /** The site search's bundled browser script (site-search/bundle.ts). */
  searchScript: string
}

/**
 * The artifact kinds, in registration order. The site's search comes first: it answers for its
 * own files' media types before the blog's catch-all guess; so do the redirects (their files
 * under _redirects/). The blog kind reads `options` when it renders, so an `openapi` set later
 * (once the routes exist) is what it renders.
 */
export function artifactKinds(options: KindOptions): ArtifactKind[] {
  return [siteSearchArtifacts({ siteUrl: options.siteUrl, script: options.searchScript }), redirectArtifacts(), blogArtifacts(options)]
}
