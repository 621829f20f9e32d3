import type { Artifact, ArtifactEffect, ArtifactKind } from '../../publishing/kinds.ts'
import { ASSETS } from '../../site/assets.ts'
import { siteHeaders } from '../../site/serve.ts'
import { paceOf, widens } from '../changes.ts'
import { contentTypeOf, pathOf, requestTarget, spellingsOf, targetOf, type Target } from '../paths.ts'
import type { BlogShare } from './share.ts'

/** What sets one of the blog's kinds apart: which of the blog's targets are its own, and where their files live. */
export interface TargetKindSpec {
  name: string
  /** The targets it owns (paths.ts `Target`, site/targets.ts `SiteTarget`), by their `kind`. */
  owns: readonly Target['kind'][]
  tops: readonly string[]
  /**
   * Whether an artifact of its own may live at this URL path (no leading or trailing slash, no
   * query): a cheap test before the URL is parsed, so a file or a read is parsed by one kind or
   * two, not by all of them. It may say yes too often, never too rarely.
   */
  claims(urlPath: string): boolean
  /** Whether its artifacts count as `sitemapUpdated` or `rssUpdated` in the publish response (default: neither). */
  effect?(target: Target): ArtifactEffect
  /** What its bytes depend on besides the database. */
  stamp(): unknown
  /**
   * Registered last, it answers the media type and headers of any file no kind before it claims,
   * from its URL (paths.ts `contentTypeOf`, site/serve.ts `siteHeaders`): the site's pages, which
   * the site's last route also answers for any other path.
   */
  fallback?: boolean
}

/** What the site's files are rendered with besides the database: a new one at start rebuilds the cache. */
export const siteStamp = ({ source }: BlogShare) => ({
  siteUrl: source.siteUrl,
  shard: source.sitemapShardSize,
  assets: Object.values(ASSETS).map((a) => a.file),
  // Only when set: an install without a hub keeps the stamp (and its cache) it had.
  ...(source.webSubHub ? { webSubHub: source.webSubHub } : {}),
})

/** A CACHE_DIR-relative file's URL path (`{path}/@{query}` → `path`), or null for a file no artifact's. */
const urlPathOfFile = (file: string): string | null => {
  if (file === '@' || file.startsWith('@')) return ''
  const mark = file.lastIndexOf('/@')
  return mark < 0 ? null : file.slice(0, mark)
}
const trimmed = (pathname: string) => pathname.replace(/^\/+|\/+$/g, '')

/**
 * One of the blog's artifact kinds: its own targets out of the URL↔file mapping (paths.ts,
 * site/targets.ts), its own share of each change's footprint and of a rebuild's (share.ts), its
 * own files' media types and headers, rendered from the snapshot the blog's kinds share.
 */
export function targetKind(share: BlogShare, spec: TargetKindSpec): ArtifactKind<Target> {
  const owned = new Set<string>(spec.owns)
  const own = (target: Target | null): target is Target => target !== null && owned.has(target.kind)
  const mine = (targets: readonly Artifact[]) => (targets as Target[]).filter(own)
  const claimsFile = (file: string) => {
    const path = urlPathOfFile(file)
    return path !== null && spec.claims(path)
  }
  return {
    name: spec.name,
    tops: spec.tops,
    parse(file) {
      if (!claimsFile(file)) return null
      const target = targetOf(file)
      return own(target) ? target : null
    },
    file: pathOf,
    spellings: spellingsOf,
    canonical(url) {
      if (!spec.claims(trimmed(url.pathname))) return null
      const target = requestTarget(url)
      return own(target) ? pathOf(target) : null
    },
    contentType: (file) => (spec.fallback || claimsFile(file) ? contentTypeOf(file) : null),
    headers: (file) => (spec.fallback || claimsFile(file) ? siteHeaders(file) : {}),
    effect: (target) => spec.effect?.(target) ?? null,
    plan: (tx, change) => mine(share.plan(tx, change)),
    pace: paceOf,
    refreshMs: share.source.engagementRefreshMs,
    widens,
    every: (db) => mine(share.every(db)),
    survey(tx) {
      const survey = share.survey(tx)
      return { inputs: survey.inputs, first: () => mine(survey.first()), moved: () => mine(survey.moved()) }
    },
    stamp: spec.stamp,
    render: share.render,
  }
}
