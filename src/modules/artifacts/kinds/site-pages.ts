import { LANGUAGE_PATH, LANGUAGES } from '../../../shared/language.ts'
import type { BlogShare } from './share.ts'
import { siteStamp, targetKind } from './target-kind.ts'

/**
 * The site's HTML pages (the root, each language's home and its deeper pages, category, tag and
 * author pages, posts, products, standalone pages) and the assets they load. Registered last, it
 * also answers the media type and headers of files no kind claims (`fallback`).
 */
export const sitePageArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'site-pages',
    owns: ['page.root', 'page.list', 'page.post', 'page.product', 'page.standalone', 'page.asset'],
    tops: ['@', ...LANGUAGES.map((l) => LANGUAGE_PATH[l].slice(1)), 'assets'],
    // Any path outside the API: a page may sit at any path under a language (a standalone page's slug).
    claims: (path) => !path.startsWith('api/'),
    stamp: () => siteStamp(share),
    fallback: true,
  })
