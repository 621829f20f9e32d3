/**
 * A bounded closed-loop load generator: `concurrency` clients each send the next request as soon
 * as the previous one answered, until `durationMs` or `maxRequests` is reached. Loopback only.
 * A request's latency runs from sending it until its body has been read (and checked by `ok`).
 */
import { percentile } from './stats.ts'

export { percentile }

export interface LoadResult {
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
}

export interface LoadSpec {
  /** A fixed URL, or one per request: `i` counts every request sent, warm-up included, from 0. */
  url: string | ((i: number) => string)
  init?: RequestInit | ((i: number) => RequestInit)
  concurrency?: number
  durationMs?: number
  maxRequests?: number
  /** Unrecorded load first, bounded by its own `maxRequests` (default 0: none). */
  warmupMs?: number
  /** A response counts as an error unless this accepts it (default: status below 400). */
  ok?: (response: Response, body: ArrayBuffer) => boolean
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const { concurrency = 16, durationMs = 3000, maxRequests = 200_000, warmupMs = 0 } = spec
  const url = typeof spec.url === 'function' ? spec.url : () => spec.url as string
  const init = typeof spec.init === 'function' ? spec.init : () => (spec.init as RequestInit | undefined) ?? {}
  const ok = spec.ok ?? ((r: Response) => r.status < 400)
  let index = 0
  const run = async (ms: number, limit: number, record: (ms: number, ok: boolean) => void) => {
    const deadline = performance.now() + ms
    let sent = 0
    const client = async () => {
      while (performance.now() < deadline && sent < limit) {
        sent++
        const i = index++
        const t0 = performance.now()
        let good = false
        try {
          const response = await fetch(url(i), init(i))
          good = ok(response, await response.arrayBuffer())
        } catch {
          good = false
        }
        record(performance.now() - t0, good)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, client))
  }
  if (warmupMs > 0) await run(warmupMs, maxRequests, () => {})
  const latencies: number[] = []
  let errors = 0
  const started = performance.now()
  await run(durationMs, maxRequests, (ms, good) => {
    latencies.push(ms)
    if (!good) errors++
  })
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
