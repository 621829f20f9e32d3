import { API } from '../paths.ts'
import type { BlogShare } from './share.ts'
import { targetKind } from './target-kind.ts'

/**
 * The API's JSON reads (spec §4.2): post details, the pre-rendered pages of the post lists, the
 * categories, tags and authors, an author's details and posts, the publication's settings; each
 * file holds exactly the envelope the API answers for that read.
 */
export const apiReadArtifacts = (share: BlogShare) =>
  targetKind(share, {
    name: 'api-reads',
    owns: ['post', 'posts', 'categories', 'tags', 'authors', 'author', 'authorPosts', 'settings'],
    tops: [API.slice(1)],
    claims: (path) => path.startsWith('api/'),
    stamp: () => ({ siteUrl: share.source.siteUrl }),
  })
