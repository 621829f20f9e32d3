/**
 * The measurement arithmetic every benchmark shares, so their figures mean the same thing:
 * one definition of a percentile (nearest rank, rounded down: the value at index ⌊p·n/100⌋ of
 * the sorted samples), one mean, and one way to time a function called repeatedly.
 */

/** The `p`-th percentile (0–100) of already sorted samples; 0 for no samples. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p * sorted.length) / 100))]! : 0

export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

export interface Summary {
  count: number
  mean: number
  p50: number
  p95: number
  p99: number
}

/** Mean and percentiles of unsorted samples (the input is not modified). */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    count: sorted.length,
    mean: mean(sorted),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  }
}

export interface TimeSpec {
  /** Untimed calls first (default 0). */
  warmup?: number
  /** At least this many timed calls (default 1)… */
  calls?: number
  /** …and keep calling until this much time has passed (default 0). */
  minMs?: number
  /** Never more than this many timed calls, whatever `minMs` says (default 100,000). */
  maxCalls?: number
}

/**
 * Times `fn` call by call, in ms. A synchronous `fn` is called without an `await` in between, so
 * sub-millisecond work is not padded with a microtask turn; a promise is awaited inside the timing.
 */
export async function timeCalls(fn: (i: number) => unknown, spec: TimeSpec = {}): Promise<number[]> {
  const { warmup = 0, calls = 1, minMs = 0, maxCalls = 100_000 } = spec
  for (let i = 0; i < warmup; i++) {
    const r = fn(i)
    if (r instanceof Promise) await r
  }
  const samples: number[] = []
  const started = performance.now()
  while (samples.length < maxCalls && (samples.length < calls || performance.now() - started < minMs)) {
    const t = performance.now()
    const r = fn(warmup + samples.length)
    if (r instanceof Promise) await r
    samples.push(performance.now() - t)
  }
  return samples
}
