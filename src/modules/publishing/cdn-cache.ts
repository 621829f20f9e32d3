import type { Config } from '../../config.ts'

/**
 * The `Cache-Control` of an artifact read by its own URL (the spellings a purge names): browsers
 * revalidate at once (`max-age=0, must-revalidate`: a publish is visible on the next load, and an
 * unchanged file costs a bodiless 304), while a shared cache in front (a CDN) keeps it for
 * `s-maxage` seconds and serves it stale for `stale-while-revalidate` more while it refetches.
 * Exact purges (purge.ts) tell the CDN when a URL changed before that. The Caddyfile builds the
 * same value from the same variables; test/publishing/cdn.test.ts checks both answer alike.
 */
export const artifactCacheControl = (cdn: Config['cdn']): string =>
  `public, max-age=0, must-revalidate, s-maxage=${cdn.maxAge}, stale-while-revalidate=${cdn.staleWhileRevalidate}`
