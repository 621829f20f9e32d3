import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../config.ts'
import { createArtifactCache } from '../modules/publishing/memory.ts'
import { memoryBudget, MIN_BUDGET_MB, RUNTIME_MB, THREAD_MB } from './memory-budget.ts'

test('MEMORY_BUDGET_MB splits into the runtime, the read cache and threads, never more than the budget', () => {
  for (const budgetMb of [MIN_BUDGET_MB, 160, 256, 512, 2048])
    for (const cores of [1, 3, 15]) {
      const b = memoryBudget(budgetMb, cores)
      const threads = b.seoWorkers + b.renderWorkers
      expect(RUNTIME_MB + b.readCacheBytes / 1024 / 1024 + threads * THREAD_MB).toBeLessThanOrEqual(budgetMb)
      expect(threads).toBeLessThanOrEqual(cores + Math.min(2, cores))
      expect(b.seoWorkers).toBeLessThanOrEqual(Math.min(2, cores))
    }
  // The smallest budget keeps a read cache and runs the checks on the request thread.
  expect(memoryBudget(MIN_BUDGET_MB, 3)).toEqual({ readCacheBytes: 4 * 1024 * 1024, seoWorkers: 0, renderWorkers: 0 })
  expect(loadConfig({ MEMORY_BUDGET_MB: '256' }).readCacheBytes).toBe(memoryBudget(256, 1).readCacheBytes)
  expect(loadConfig({ MEMORY_BUDGET_MB: '256', SEO_WORKERS: '0' }).seoWorkers).toBe(0)
  expect(() => loadConfig({ MEMORY_BUDGET_MB: '64' })).toThrow(`MEMORY_BUDGET_MB: must be between ${MIN_BUDGET_MB}`)
})

test('the read cache never holds more than its budget: the oldest entries leave first, an entry over a quarter is never held', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-read-cache-'))
  try {
    const budgetBytes = 1000
    for (let i = 0; i < 8; i++) writeFileSync(join(dir, `a${i}.html`), 'x'.repeat(240))
    writeFileSync(join(dir, 'big.html'), 'x'.repeat(251))
    const cache = createArtifactCache(dir, () => ({ ok: {}, notModified: {} }), { budgetBytes })
    const first = cache.get('a0.html')
    for (let i = 0; i < 8; i++) {
      expect(cache.get(`a${i}.html`)?.size).toBe(240)
      expect(cache.held()).toBeLessThanOrEqual(budgetBytes)
    }
    expect(cache.held()).toBe(4 * 240)
    // a0 left to make room: read again, it is a new entry; a7, the newest, is the one held.
    expect(cache.get('a0.html')).not.toBe(first)
    const newest = cache.get('a7.html')
    expect(cache.get('a7.html')).toBe(newest)
    // Served, but not held: one file may not push out a quarter of the cache.
    expect(cache.get('big.html')?.size).toBe(251)
    expect(cache.held()).toBe(4 * 240)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
