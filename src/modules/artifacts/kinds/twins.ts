import { LANGUAGE_PATH, LANGUAGES } from '../../../shared/language.ts'
import type { BlogShare } from './share.ts'
import { targetKind } from './target-kind.ts'

/** Whether a URL path is a Markdown twin's: the page's own path with `.md`. */
const isTwin = (path: string): boolean => !path.startsWith('api/') && path.endsWith('.md')

/** The Markdown twins of the posts' and standalone pages (`/en/blog/{slug}.md`, `/en/{slug}.md`): the page's text for agents. */
export const twinArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'twins',
    owns: ['page.twin', 'page.standaloneTwin'],
    tops: LANGUAGES.map((l) => LANGUAGE_PATH[l].slice(1)),
    claims: isTwin,
    stamp: () => ({ siteUrl: share.source.siteUrl }),
  })
