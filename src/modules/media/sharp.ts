import type Sharp from 'sharp'

let loaded: Promise<typeof Sharp> | undefined

/**
 * sharp (libvips and its bindings: ~60 ms of CPU to load) with the first image that needs it,
 * rather than at every start of the server and the CLI (docs/benchmarks.md, "CLI start"). Loaded
 * without libvips's operation cache: what the pipelines keep in memory, each upload decoded once.
 */
export const loadSharp = (): Promise<typeof Sharp> =>
  (loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false)
    return sharp
  }))
