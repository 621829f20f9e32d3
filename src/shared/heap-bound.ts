/** How much the heap and external memory may grow between two collections a bound asks for. */
const GROWTH_BYTES = 12 * 1024 * 1024

/**
 * The process's resident memory. Not `heapUsed + external`: strings' storage (file contents,
 * rendered pages, parsed JSON) lies outside what those count, measured 30,000 short strings at
 * +29 MB RSS and 0 MB heapUsed, so a bound on them let a forced rebuild at 10,000 posts reach
 * 336 MB where this one holds it at 236 (docs/memory.md). On a thread it counts the other threads'
 * growth too, which at worst collects this one's garbage earlier.
 */
const inUse = () => process.memoryUsage.rss()

/**
 * Garbage collected by a budget, not by the collector's mood (docs/memory.md, "Render passes"):
 * JavaScriptCore collects as its own heap grows, but most of a render pass's garbage lies outside
 * it (the Buffers of files written, the compressors' output, strings' backing stores), so a
 * rebuild's resident memory climbs by hundreds of MB before it does, and keeps the pages.
 * `settle()`, called between passes, runs a full collection once what is in use grew by
 * `growthBytes` since the last one: memory stays within that of the live data whatever the number
 * of artifacts, for one collection (tens of ms) per few hundred artifacts rendered. The meter and
 * the collector are the process's own unless a test hands others.
 */
export function heapBound(growthBytes = GROWTH_BYTES, measure = inUse, collect = () => Bun.gc(true)) {
  let floor = measure()
  return {
    settle(): void {
      if (measure() - floor < growthBytes) return
      collect()
      floor = measure()
    },
  }
}
