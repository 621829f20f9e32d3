import { eq } from 'drizzle-orm'
import { authors } from '../../db/schema/index.ts'
import type { ArtifactKind } from '../publishing/kinds.ts'
import { replaceSubjectStates } from '../publishing/jobs.ts'
import { siteInputs } from './inputs.ts'
import { API, contentTypeOf, filesOf, pathOf, requestTarget, targetOf, type Target } from './paths.ts'
import { allPostStates, authorStateOf, everyTarget } from './plan.ts'
import { renderTargets } from './render/artifact.ts'
import type { SiteOptions } from './snapshot.ts'
import { everySiteTarget, siteTargetsFor } from '../site/plan.ts'
import { siteHeaders } from '../site/serve.ts'
import { ASSETS } from '../site/assets.ts'
import { SITE_TOP } from '../site/targets.ts'
import { authorSubject, paceOf, planChange, postMoved, postSubject, widens } from './changes.ts'

/** How many of the newest posts a rebuild renders first (with the lists and feeds they head). */
const FIRST_POSTS = 20

/** What the blog's artifacts are rendered with: the site's options and the OpenAPI document (set at start). */
export interface BlogSource extends SiteOptions {
  openapi: string
  /** How long clap and comment counts inside pre-rendered posts may lag (ENGAGEMENT_REFRESH_SECONDS), in ms. */
  engagementRefreshMs: number
}

/**
 * The blog's artifacts as one kind: the API's JSON reads, feeds, sitemap, robots and OpenAPI
 * document, and the site's pages, feeds, sitemaps, Markdown twins and `llms.txt`, which follow
 * the JSON reads they show.
 */
export function blogArtifacts(source: BlogSource): ArtifactKind<Target> {
  return {
    name: 'blog',
    tops: [API.slice(1), ...SITE_TOP],
    parse: targetOf,
    files: filesOf,
    canonical(url) {
      const target = requestTarget(url)
      return target && pathOf(target)
    },
    contentType: contentTypeOf,
    headers: siteHeaders,
    effect: (t) => (t.kind === 'sitemap' || t.kind === 'sitemapShard' ? 'sitemap' : t.kind === 'rss' ? 'rss' : null),
    plan: (tx, change) => planChange(tx, source, change),
    pace: paceOf,
    refreshMs: source.engagementRefreshMs,
    widens,
    every: (db) => [...everyTarget(db, source), ...everySiteTarget(db, source.sitemapShardSize)],
    survey(tx) {
      const inputs = siteInputs(tx, source)
      const after = allPostStates(tx)
      // Only the posts whose recorded state differs come back (with what was recorded).
      const differing = replaceSubjectStates(tx, postSubject.prefix, new Map([...after].map(([id, state]) => [postSubject(id), state])))
      const enabled = tx.select({ id: authors.id }).from(authors).where(eq(authors.status, 1)).all()
      replaceSubjectStates(tx, authorSubject.prefix, new Map(enabled.map((row) => [authorSubject(row.id), authorStateOf(tx, row.id)])))
      // What shows a post as it is now: its pages, and the lists and feeds it heads.
      const shows = (id: number) => {
        const api = postMoved(tx, source, id, null, after.get(id) ?? null)
        return [...api, ...siteTargetsFor(tx, api)]
      }
      return {
        inputs,
        first: () =>
          [...after.keys()]
            .sort((a, b) => b - a)
            .slice(0, FIRST_POSTS)
            .flatMap(shows),
        moved: () =>
          [...differing].flatMap(([subject, old]) => {
            const id = postSubject.idOf(subject)
            const current = after.get(id) ?? null
            if (old?.inputs === current?.inputs) return []
            const api = postMoved(tx, source, id, old, current)
            return [...api, ...siteTargetsFor(tx, api)]
          }),
      }
    },
    stamp: () => ({
      siteUrl: source.siteUrl,
      shard: source.sitemapShardSize,
      openapi: source.openapi,
      assets: Object.values(ASSETS).map((a) => a.file),
      // Only when set: an install without a hub keeps the stamp (and its cache) it had.
      ...(source.webSubHub ? { webSubHub: source.webSubHub } : {}),
    }),
    render: (db, targets) => renderTargets({ ...source, db }, targets),
  }
}
