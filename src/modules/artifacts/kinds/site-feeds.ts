import { LANGUAGE_PATH, LANGUAGES } from '../../../shared/language.ts'
import type { BlogShare } from './share.ts'
import { siteStamp, targetKind } from './target-kind.ts'

/** A URL path of one of the site's feeds: `{lang}/[{scope}/{slug}/]rss.xml|atom.xml|feed.json`. */
const SITE_FEED = /(^|\/)(rss\.xml|atom\.xml|feed\.json)$/

/** The site's feeds: RSS, Atom and JSON Feed of the home page and of each category, tag and author page, per language. */
export const siteFeedArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'site-feeds',
    owns: ['page.feed'],
    tops: LANGUAGES.map((l) => LANGUAGE_PATH[l].slice(1)),
    claims: (path) => !path.startsWith('api/') && SITE_FEED.test(path),
    stamp: () => siteStamp(share),
  })
