import type { ArtifactEffect } from './kinds.ts'
import type { WriteOutcome } from './writer.ts'

export interface RenderStats {
  rendered: number
  written: number
  removed: number
  failed: number
  sitemapUpdated: boolean
  rssUpdated: boolean
}

/** A rebuild's summary: what its passes did, and how many expected artifacts needed no render at all. */
export interface RebuildStats extends RenderStats {
  skipped: number
  /** Files found not to hold their recorded bytes (verify.ts), and how many of them were written again. */
  damaged: number
  repaired: number
}

export const emptyStats = (): RenderStats => ({ rendered: 0, written: 0, removed: 0, failed: 0, sitemapUpdated: false, rssUpdated: false })

export function merge(into: RenderStats, more: RenderStats): void {
  into.rendered += more.rendered
  into.written += more.written
  into.removed += more.removed
  into.failed += more.failed
  into.sitemapUpdated ||= more.sitemapUpdated
  into.rssUpdated ||= more.rssUpdated
}

const touches = (effect: ArtifactEffect, stats: RenderStats) => {
  if (effect === 'sitemap') stats.sitemapUpdated = true
  if (effect === 'rss') stats.rssUpdated = true
}

export const tally = (stats: RenderStats, effect: ArtifactEffect, outcome: WriteOutcome | 'failed') => {
  if (outcome === 'failed') {
    stats.failed++
    return
  }
  stats.rendered++
  // Copies are files written too, but of bytes already served: no sitemap or feed changed for them.
  if (outcome === 'written' || outcome === 'copied') stats.written++
  if (outcome === 'removed') stats.removed++
  if (outcome === 'written' || outcome === 'removed') touches(effect, stats)
}
