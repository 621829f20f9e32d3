/**
 * A bounded closed-loop load generator: `concurrency` clients each send the next request as soon
 * as the previous one answered, until `durationMs` or `maxRequests` is reached. Loopback only.
 */
export interface LoadResult {
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
}

export interface LoadSpec {
  url: string | (() => string)
  init?: RequestInit | (() => RequestInit)
  concurrency?: number
  durationMs?: number
  maxRequests?: number
  /** A response counts as an error unless this accepts it (default: 2xx/3xx/304). */
  ok?: (response: Response) => boolean
}

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const { concurrency = 16, durationMs = 3000, maxRequests = 200_000 } = spec
  const url = typeof spec.url === 'function' ? spec.url : () => spec.url as string
  const init = typeof spec.init === 'function' ? spec.init : () => (spec.init as RequestInit | undefined) ?? {}
  const ok = spec.ok ?? ((r: Response) => r.status < 400)
  const latencies: number[] = []
  let sent = 0
  let errors = 0
  const started = performance.now()
  const deadline = started + durationMs
  const client = async () => {
    while (performance.now() < deadline && sent < maxRequests) {
      sent++
      const t0 = performance.now()
      try {
        const response = await fetch(url(), init())
        await response.arrayBuffer()
        if (!ok(response)) errors++
      } catch {
        errors++
      }
      latencies.push(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, client))
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  }
}

export const formatLoad = (r: LoadResult) =>
  `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  (${r.requests} requests, ${r.errors} errors)`
