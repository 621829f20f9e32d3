import { eq } from 'drizzle-orm'
import type { Queryable, Tx } from '../../../db/client.ts'
import { authors } from '../../../db/schema/index.ts'
import type { Change } from '../../../shared/changes.ts'
import { replaceSubjectStates } from '../../publishing/subjects.ts'
import { everySiteTarget, siteTargetsFor } from '../../site/plan.ts'
import { readsOf } from '../../site/render.tsx'
import { authorSubject, planChange, postMoved, postSubject } from '../changes.ts'
import { siteInputs } from '../inputs.ts'
import type { Target } from '../paths.ts'
import { allPostStates, authorStateOf, everyTarget } from '../plan.ts'
import { renderTargets, type PostCache } from '../render/artifact.ts'
import type { SiteOptions } from '../snapshot.ts'

/** What the blog's artifacts are rendered with: the site's options and the OpenAPI document (set at start). */
export interface BlogSource extends SiteOptions {
  openapi: string
  /** How long clap and comment counts inside pre-rendered posts may lag (ENGAGEMENT_REFRESH_SECONDS), in ms. */
  engagementRefreshMs: number
}

/** What a rebuild learns of the blog's artifacts, in its one marking transaction. */
export interface BlogSurvey {
  inputs: string
  first(): Target[]
  moved(): Target[]
}

/**
 * What the blog's kinds (the API's reads and feeds, the site's pages, feeds and sitemaps, Markdown
 * twins, `llms.txt`) share, made once in the composition root and handed to each. One change
 * moves one post, whose old state is recorded once (`artifact_subjects`) and whose footprint
 * spans every one of these kinds; so the footprint is worked out once per change (the API's reads
 * and feeds first, then the site's pages showing the same data: `changes.ts`), and once per
 * rebuild, and each kind takes its own share. A render pass reads the publication, the lists and
 * each post once, whichever kinds show them. Each memo is keyed by the transaction (or change)
 * the engine hands every kind in turn, and dies with it.
 */
export interface BlogShare {
  source: BlogSource
  plan(tx: Tx, change: Change): Target[]
  every(db: Queryable): Target[]
  survey(tx: Tx): BlogSurvey
  render(db: Queryable, targets: readonly Target[]): (string | null)[]
}

function perKey<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>()
  return (key) => {
    if (!made.has(key)) made.set(key, make(key))
    return made.get(key)!
  }
}

/** How many of the newest posts a rebuild renders first (with the lists and feeds they head). */
const FIRST_POSTS = 20

export function blogShare(source: BlogSource): BlogShare {
  const plans = perKey((tx: Tx) => perKey((change: Change) => planChange(tx, source, change)))
  const snapshots = perKey((db: Queryable) => ({ reads: readsOf({ ...source, db }), posts: new Map() as PostCache }))
  return {
    source,
    plan: (tx, change) => plans(tx)(change),
    every: perKey((db: Queryable) => [...everyTarget(db, source), ...everySiteTarget(db, source.sitemapShardSize)]),
    survey: perKey((tx: Tx) => surveyBlog(tx, source)),
    render: (db, targets) => renderTargets({ ...source, db, ...snapshots(db) }, targets),
  }
}

/**
 * A rebuild's look at the blog: the inputs' fingerprint, and the posts (and authors) whose
 * recorded states it replaces, with what showed them as they were and as they are.
 */
function surveyBlog(tx: Tx, source: BlogSource): BlogSurvey {
  const inputs = siteInputs(tx, source)
  const after = allPostStates(tx)
  // Only the posts whose recorded state differs come back (with what was recorded).
  const differing = replaceSubjectStates(tx, postSubject.prefix, new Map([...after].map(([id, state]) => [postSubject(id), state])))
  const enabled = tx.select({ id: authors.id }).from(authors).where(eq(authors.status, 1)).all()
  replaceSubjectStates(tx, authorSubject.prefix, new Map(enabled.map((row) => [authorSubject(row.id), authorStateOf(tx, row.id)])))
  const withSite = (api: Target[]) => [...api, ...siteTargetsFor(tx, api)]
  let first: Target[] | null = null
  let moved: Target[] | null = null
  return {
    inputs,
    // What shows a post as it is now: its pages, and the lists and feeds it heads.
    first: () =>
      (first ??= [...after.keys()]
        .sort((a, b) => b - a)
        .slice(0, FIRST_POSTS)
        .flatMap((id) => withSite(postMoved(tx, source, id, null, after.get(id) ?? null)))),
    moved: () =>
      (moved ??= [...differing].flatMap(([subject, old]) => {
        const id = postSubject.idOf(subject)
        const current = after.get(id) ?? null
        return old?.inputs === current?.inputs ? [] : withSite(postMoved(tx, source, id, old, current))
      })),
  }
}
