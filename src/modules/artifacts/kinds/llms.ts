import type { BlogShare } from './share.ts'
import { targetKind } from './target-kind.ts'

const LLMS = 'llms.txt'

/** `/llms.txt` (llmstxt.org): the publication and its newest posts per language, each linking its Markdown twin. */
export const llmsArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'llms',
    owns: ['page.llms'],
    tops: [LLMS],
    claims: (path) => path === LLMS,
    stamp: () => ({ siteUrl: share.source.siteUrl }),
  })
