import { describe, expect, test } from 'bun:test'
import { nextSeq, retryDelayMs } from './jobs.ts'

describe('render jobs', () => {
  test('a failed render is retried after 2 s, doubling, at most a minute', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
  })

  test('sequence numbers only grow, even many within one millisecond', () => {
    const before = Date.now()
    const seqs = Array.from({ length: 1000 }, nextSeq)
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!)
    // Time-based: at least the clock's reading before they were taken (no window after it).
    expect(seqs[0]!).toBeGreaterThanOrEqual(before * 1000)
  })
})
