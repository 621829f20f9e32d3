import { expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'
import { superviseWorker } from '../../src/modules/webhooks/supervisor.ts'
import type { Logger } from '../../src/shared/log.ts'

test('a worker thread that dies is replaced, with a growing backoff, until the supervisor stops', async () => {
  const events: { message: string; fields?: Record<string, unknown> }[] = []
  const note = (message: string, fields?: Record<string, unknown>) => void events.push({ message, fields })
  const log: Logger = { debug: note, info: note, warn: note, error: note }
  const entry = new URL('./fixtures/dying-worker.ts', import.meta.url)
  const handle = superviseWorker(loadConfig({}), '/nonexistent/folio.db', log, entry)
  // Backoff 100, 200, 400 ms...: about four replacements in 1.2 s, never a tight loop.
  await Bun.sleep(1200)
  await handle.stop()
  const replaced = events.filter((e) => e.message === 'webhook worker replaced')
  expect(handle.restarts()).toBeGreaterThanOrEqual(3)
  expect(handle.restarts()).toBeLessThanOrEqual(5)
  expect(replaced.map((e) => e.fields?.restartInMs)).toEqual([100, 200, 400, 800, 1600].slice(0, replaced.length))
  expect(events.some((e) => e.message === 'webhook worker error' && String(e.fields?.error).includes('worker died on purpose'))).toBe(true)
  const after = handle.restarts()
  await Bun.sleep(500)
  expect(handle.restarts()).toBe(after)
})
