import { describe, expect, test } from 'bun:test'
import { cuttableDelay, formatTime, parseTime } from './time.ts'

test('the spec shape and ISO 8601 are read as UTC', () => {
  expect(formatTime(parseTime('2026-03-01 10:00:00')!)).toBe('2026-03-01 10:00:00')
  expect(formatTime(parseTime('2026-03-01')!)).toBe('2026-03-01 00:00:00')
  expect(formatTime(parseTime('2026-03-01T10:00:00+02:00')!)).toBe('2026-03-01 08:00:00')
  expect(formatTime(parseTime('2028-02-29 23:59:59')!)).toBe('2028-02-29 23:59:59')
})

test('impossible dates are refused, never rolled over', () => {
  for (const value of [
    '2026-13-45 99:99:99',
    '2026-02-31 10:00:00',
    '2026-02-29',
    '2026-01-01 24:00:00',
    '2026-01-01 10:60',
    'last tuesday',
    '2026-1-1',
    '',
  ])
    expect(parseTime(value)).toBeNull()
})

test('zones, fractions and the T separator', () => {
  expect(formatTime(parseTime('2026-02-01 10:00:00Z')!)).toBe('2026-02-01 10:00:00')
  expect(formatTime(parseTime('2026-02-01T10:00:00.500-0130')!)).toBe('2026-02-01 11:30:00')
  expect(formatTime(parseTime('2026-02-01T10:00')!)).toBe('2026-02-01 10:00:00')
})

describe('cuttableDelay', () => {
  test('resolves after its time, or at once when cut; cutting again does nothing', async () => {
    const started = performance.now()
    await cuttableDelay(20).done
    expect(performance.now() - started).toBeGreaterThanOrEqual(15)
    const long = cuttableDelay(60_000)
    long.cut()
    long.cut()
    // Resolved at once: before a timer of no delay set after the cut fires (no window on the real clock).
    expect(await Promise.race([long.done.then(() => 'cut'), Bun.sleep(0).then(() => 'still waiting')])).toBe('cut')
  })
})
