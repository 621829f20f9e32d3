import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'
import { judge, maxAttempts, nextAttemptAt } from '../../src/modules/webhooks/retry-policy.ts'

const defaults = loadConfig({}).webhookRetryDelaysMs

describe('WEBHOOK_RETRY_DELAYS', () => {
  test('defaults to 5, 10, 15, 15, 15 minutes', () => {
    expect(defaults).toEqual([300_000, 600_000, 900_000, 900_000, 900_000])
  })
  test('takes seconds, or milliseconds with an ms suffix', () => {
    expect(loadConfig({ WEBHOOK_RETRY_DELAYS: '1, 2s,250ms' }).webhookRetryDelaysMs).toEqual([1000, 2000, 250])
  })
  test('refuses anything else with one line naming the variable', () => {
    for (const bad of ['0', '0ms', '1,2,3,4,5,6', 'abc', '1.5', '-1', '1m', '1,,2', '700000'])
      expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: bad })).toThrow(/^WEBHOOK_RETRY_DELAYS: /)
  })
})

describe('retry policy', () => {
  const now = 1_000_000
  test('"at most 5 retries": one initial attempt plus 5 retries, 6 attempts in all', () => {
    expect(maxAttempts(defaults)).toBe(6)
    const waits = [1, 2, 3, 4, 5].map((made) => nextAttemptAt(defaults, made, now)! - now)
    expect(waits).toEqual([300_000, 600_000, 900_000, 900_000, 900_000])
    expect(nextAttemptAt(defaults, 6, now)).toBeNull()
  })
  test('a 2xx delivers, a 410 is gone, anything else retries until the schedule runs out', () => {
    expect(judge(200, 1, defaults, now)).toEqual({ kind: 'delivered' })
    expect(judge(204, 6, defaults, now)).toEqual({ kind: 'delivered' })
    expect(judge(410, 1, defaults, now)).toEqual({ kind: 'gone' })
    expect(judge(500, 1, defaults, now)).toEqual({ kind: 'retry', at: now + 300_000 })
    expect(judge(null, 2, defaults, now)).toEqual({ kind: 'retry', at: now + 600_000 })
    expect(judge(301, 5, defaults, now)).toEqual({ kind: 'retry', at: now + 900_000 })
    expect(judge(500, 6, defaults, now)).toEqual({ kind: 'give-up' })
    expect(judge(500, 1, [], now)).toEqual({ kind: 'give-up' })
  })
})
