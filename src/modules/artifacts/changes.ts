import type { Tx } from '../../db/client.ts'
import type { Change } from '../../shared/changes.ts'
import type { Pace } from '../publishing/kinds.ts'
import { LANGUAGE_PATH, LANGUAGES } from '../../shared/language.ts'
import type { PostRow } from '../posts/repo.ts'
import { writtenPathsUnder } from '../publishing/jobs.ts'
import { saveSubjectState, subjectState } from '../publishing/subjects.ts'
import { targetOf, type Target } from './paths.ts'
import {
  authorFootprint,
  authorStateOf,
  categoryFootprint,
  currentPostState,
  engagementFootprint,
  postFootprint,
  postStateOf,
  resourcesFootprint,
  tagFootprint,
  type AuthorState,
  type PostState,
} from './plan.ts'
import type { SiteOptions } from './snapshot.ts'
import {
  everySiteTarget,
  pagesSitemapTargets,
  partnerPages,
  productTargets,
  siteTargetsFor,
  standaloneChangeTargets,
} from '../site/plan.ts'

/**
 * Which of the blog's artifacts a change touches, inside its transaction: the JSON reads first
 * (with the subject states that let the next change undo where a post or author showed), then
 * the site pages showing the same data.
 */

export const postSubject = Object.assign((id: number) => `post:${id}`, {
  prefix: 'post:',
  idOf: (subject: string) => Number(subject.slice('post:'.length)),
})
export const authorSubject = Object.assign((id: number) => `author:${id}`, { prefix: 'author:' })

/** Changes to the tables `siteInputs` fingerprints. */
const SITE_WIDE = new Set<Change['kind']>(['category', 'tag', 'author', 'settings', 'resources', 'page'])
export const widens = (change: Change): boolean => SITE_WIDE.has(change.kind)

/**
 * How soon a change's artifacts are due (kinds.ts `Pace`): the changes that re-render every page
 * (the publication's settings in every header, category and tag names in every navigation)
 * go to the background lane; engagement counts refresh on their bounded schedule.
 */
export function paceOf(change: Change): Pace {
  if (change.kind === 'settings' || change.kind === 'category' || change.kind === 'tag') return 'background'
  return change.kind === 'engagement' ? 'refresh' : 'now'
}

function postTargets(tx: Tx, options: SiteOptions, after: PostRow, before: PostRow | null): Target[] {
  const subject = postSubject(after.id)
  const old = subjectState<PostState>(tx, subject) ?? (before ? postStateOf(tx, before) : null)
  const current = currentPostState(tx, after.id)
  saveSubjectState(tx, subject, current)
  return postMoved(tx, options, after.id, old, current)
}

/** Everything showing a post as it was (`old`) or as it is now, the site's pages with it. */
export function postMoved(tx: Tx, options: SiteOptions, id: number, old: PostState | null, current: PostState | null): Target[] {
  return [old, current].flatMap((state) => (state ? [...postFootprint(tx, options, id, state), ...partnerPages(tx, state)] : []))
}

function authorTargets(tx: Tx, id: number): Target[] {
  const old = subjectState<AuthorState>(tx, authorSubject(id))
  const current = authorStateOf(tx, id)
  saveSubjectState(tx, authorSubject(id), current)
  return authorFootprint(tx, id, old, current)
}

/**
 * The site's pages the manifest holds under `{language}/{folder}/`: a renamed category, tag or
 * product leaves its pages under the old slug, which the database no longer names; re-rendered,
 * they render to nothing and go. Read from the manifest, never from the disk, inside the write.
 */
function writtenPages(tx: Tx, folders: readonly string[]): Target[] {
  const found: Target[] = []
  for (const language of LANGUAGES)
    for (const folder of folders)
      for (const path of writtenPathsUnder(tx, `${LANGUAGE_PATH[language].slice(1)}/${folder}/`)) {
        const target = targetOf(path)
        if (target) found.push(target)
      }
  return found
}

/** The JSON artifacts a change touches, and the site pages showing the same data. */
export function planChange(tx: Tx, options: SiteOptions, change: Change): Target[] {
  const api = apiPlan(tx, options, change)
  const shards = options.sitemapShardSize
  // The publication's name is in every page's header, category names in every navigation, and
  // category and tag names in every feed item: such rare changes re-render the whole site.
  if (change.kind === 'settings') return [...api, ...everySiteTarget(tx, shards)]
  if (change.kind === 'page') return standaloneChangeTargets(tx, change.before, change.after, shards)
  // A category or tag also names its pages sitemap shard: disabled, it may leave that shard
  // empty, which the whole site's list no longer names.
  if (change.kind === 'category' || change.kind === 'tag')
    return [
      ...api,
      ...everySiteTarget(tx, shards),
      ...writtenPages(tx, [change.kind]),
      ...pagesSitemapTargets(change.kind, [change.id], shards),
    ]
  // Counts show on the post's own page only (list cards carry none).
  if (change.kind === 'engagement')
    return [...api, ...api.flatMap((t) => (t.kind === 'post' ? [{ ...t, kind: 'page.post' as const }] : []))]
  const products = change.kind === 'resources' ? [...productTargets(tx, change.ids, shards), ...writtenPages(tx, ['products'])] : []
  const author = change.kind === 'author' ? pagesSitemapTargets('author', [change.id], shards) : []
  return [...api, ...siteTargetsFor(tx, api), ...products, ...author]
}

function apiPlan(tx: Tx, options: SiteOptions, change: Change): Target[] {
  switch (change.kind) {
    case 'post':
      return postTargets(tx, options, change.after, change.before)
    case 'category':
      return categoryFootprint(tx, change.id)
    case 'tag':
      return tagFootprint(tx, change.id)
    case 'author':
      return authorTargets(tx, change.id)
    case 'settings':
      // The API's feeds carry the publication's name and description too.
      return [{ kind: 'settings' }, ...LANGUAGES.map((language): Target => ({ kind: 'rss', language }))]
    case 'engagement': {
      const state = subjectState<PostState>(tx, postSubject(change.postId))
      return state ? engagementFootprint(tx, change.postId, state) : []
    }
    case 'resources':
      return resourcesFootprint(tx, change.ids)
    case 'page':
      // Standalone pages have no pre-rendered API read (the API answers pages/… itself).
      return []
    case 'comment':
      // Nothing public changes until a moderator approves it (then an `engagement` change follows).
      return []
  }
}
