/**
 * What MEMORY_BUDGET_MB buys (docs/memory.md). The server's memory is the runtime with its code
 * and SQLite's page cache (fixed), the in-memory read cache (bounded by bytes), and one JS heap per
 * pool thread (SEO checks, render slices). The figures are measured on this code with
 * `bench/memory.bench.ts`; the split gives a quarter of what the runtime leaves to the read cache
 * and the rest to threads, never more threads than the spare cores.
 */

/**
 * The server idle after a start at 10,000 posts (MB RSS, bench/memory.bench.ts's idle phase in the
 * 256 MB group): its code, SQLite's page cache and the webhook thread; pool threads (render, SEO,
 * copies) start at first use and end after a minute idle, the console is bundled at its first request.
 */
export const RUNTIME_MB = 104
/** One more Worker thread with the SEO check loaded, idle (MB RSS; bench/memory.bench.ts's "thread" line). */
export const THREAD_MB = 16
/** The smallest budget the server can keep: the runtime, a small read cache and no pool thread. */
export const MIN_BUDGET_MB = RUNTIME_MB + 8

export interface MemoryBudget {
  /** The in-memory read cache's bytes (publishing/memory.ts): the oldest entries leave past it. */
  readCacheBytes: number
  /** SEO_WORKERS' default: pool threads for the SEO check, started at the first check. */
  seoWorkers: number
  /** Threads left for render slices (RENDER_WORKERS' default, where a render pool exists). */
  renderWorkers: number
}

export function memoryBudget(budgetMb: number, spareCores: number): MemoryBudget {
  const free = Math.max(0, budgetMb - RUNTIME_MB)
  const readCacheMb = Math.min(256, Math.max(4, Math.floor(free / 4)))
  const threads = Math.max(0, Math.floor((free - readCacheMb) / THREAD_MB))
  const seoWorkers = Math.min(2, spareCores, threads)
  return {
    readCacheBytes: readCacheMb * 1024 * 1024,
    seoWorkers,
    renderWorkers: Math.min(spareCores, threads - seoWorkers),
  }
}
