import { expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'
import { superviseWorker } from '../../src/modules/webhooks/supervisor.ts'
import type { Logger } from '../../src/shared/log.ts'

test('a worker thread that dies is replaced, with a growing backoff, until the supervisor stops', async () => {
  const events: { message: string; fields?: Record<string, unknown> }[] = []
  // The supervisor's own report of its fourth replacement is the signal to stop: no window on the real clock.
  let fourth!: () => void
  const fourReplaced = new Promise<void>((resolve) => (fourth = resolve))
  const note = (message: string, fields?: Record<string, unknown>) => {
    events.push({ message, fields })
    if (events.filter((e) => e.message === 'webhook worker replaced').length === 4) fourth()
  }
  const log: Logger = { debug: note, info: note, warn: note, error: note }
  const entry = new URL('./fixtures/dying-worker.ts', import.meta.url)
  const handle = superviseWorker(loadConfig({}), '/nonexistent/folio.db', log, entry)
  await fourReplaced
  await handle.stop()
  // Backoff 100, 200, 400, 800 ms…: never a tight loop.
  const replaced = events.filter((e) => e.message === 'webhook worker replaced')
  expect(replaced.map((e) => e.fields?.restartInMs)).toEqual([100, 200, 400, 800])
  expect(handle.restarts()).toBe(4)
  expect(events.some((e) => e.message === 'webhook worker error' && String(e.fields?.error).includes('worker died on purpose'))).toBe(true)
  // Stopped during the fourth backoff: its restart never comes, however long one waits past it.
  // An absence, so a wait on the real clock is the only way to show it (no signal can say "never"):
  // past the 800 ms backoff that `stop` cleared.
  await Bun.sleep(1_000)
  expect(handle.restarts()).toBe(4)
})
