import { afterAll, describe, expect, test } from 'bun:test'
import { availableParallelism } from 'node:os'
import { loadConfig } from '../../src/config.ts'
import { CHECK_TASKS, type CheckTasks } from '../../src/modules/posts/check-tasks.ts'
import { createPool, inProcess, type TaskRunner } from '../../src/modules/seo/pool.ts'
import * as X from '../../src/modules/seo/worked-examples.ts'
import { worldFacts, type SeoJob } from '../../src/modules/seo/world-facts.ts'
import { DomainError } from '../../src/shared/errors.ts'
import { createLogger } from '../../src/shared/log.ts'
import type { HOOKED_TASKS } from '../fixtures/seo-thread-hooks.ts'
import { maximalBody } from '../support/adversarial.ts'

const log = createLogger('error', () => {})
const ENTRY = new URL('../../src/modules/posts/check-thread.ts', import.meta.url)
const HOOKED = new URL('../fixtures/seo-thread-hooks.ts', import.meta.url)
const pools: TaskRunner<any>[] = []
afterAll(async () => {
  for (const pool of pools) await pool.close()
})
const pool = <T extends Record<string, (arg: never) => unknown> = CheckTasks>(options: Partial<Parameters<typeof createPool>[0]> = {}) => {
  const created = createPool<T>({ size: 1, entry: ENTRY, ...options }, log)
  pools.push(created)
  return created
}
const here = inProcess(CHECK_TASKS)

const job = (task: SeoJob['task'], input: typeof X.E0) => ({ input, facts: worldFacts(task, input, X.WORLD, X.NOW), now: X.NOW.getTime() })
const EXAMPLES = { E0: X.E0, E1: X.E1, E2: X.E2, E3: X.E3, E4: X.E4, E5: X.E5, Z0: X.Z0, Z1: X.Z1, Z2: X.Z2, Z3: X.Z3 }
/** What a refusal says to a client, whichever thread raised it. */
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => {
      expect(error).toBeInstanceOf(DomainError)
      const { code, status, message, data, headers } = error as DomainError
      return { code, status, message, data, headers }
    },
  )

describe('through a Worker thread, the same answers as on the request thread, byte for byte', () => {
  const threads = pool()
  test.each(Object.entries(EXAMPLES))('check and autofix of %s', async (_, input) => {
    for (const task of ['check', 'autofix'] as const) {
      const [there, local] = await Promise.all([threads.run(task, job(task, input)), here.run(task, job(task, input))])
      expect(JSON.stringify(there)).toBe(JSON.stringify(local))
    }
  })

  test('the body passes: Markdown, sanitizing, heading ids and text, media keys', async () => {
    const bodies = [
      { contentHtml: X.E0_HTML + '<img src="/media/a.png" onerror="x()">' },
      { contentMarkdown: '# Hi\n\nSee [docs](https://example.org) ![](/media/b.png)' },
    ]
    for (const body of bodies) {
      for (const task of ['checkedBody', 'storedBody'] as const) expect(await threads.run(task, body)).toEqual(await here.run(task, body))
      const input = { ...X.E0, contentHtml: await here.run('checkedBody', body) }
      const arg = { input, mediaUrl: 'https://blog.example.com/media' }
      expect(await threads.run('mediaKeys', arg)).toEqual(await here.run('mediaKeys', arg))
    }
  })

  test('a refusal (a 400 naming the field) crosses the thread as the same refusal', async () => {
    for (const body of [{ contentHtml: maximalBody('100,000 nested div (refused)') }, { contentHtml: '<p>x</p>', contentMarkdown: 'x' }]) {
      const there = await refusalOf(threads.run('storedBody', body))
      expect(there).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 })
      expect(there).toEqual(await refusalOf(here.run('storedBody', body)))
    }
  })
})

describe('a thread that is stuck, dies, or has too much queued: every call is answered', () => {
  test('a job over the time bound is answered SEO_WORKER_FAILED (503); the thread is replaced and the next job answered', async () => {
    const threads = pool<typeof HOOKED_TASKS>({ entry: HOOKED, timeoutMs: 2_000 })
    expect(await refusalOf(threads.run('stall', 60_000))).toMatchObject({
      code: 'SEO_WORKER_FAILED',
      status: 503,
      data: { reason: 'timeout' },
      headers: { 'retry-after': '1' },
    })
    expect(JSON.stringify(await threads.run('check', job('check', X.E0)))).toBe(JSON.stringify(await here.run('check', job('check', X.E0))))
  })

  test('a thread that dies mid-job is answered SEO_WORKER_FAILED; the next job runs on its replacement', async () => {
    const threads = pool<typeof HOOKED_TASKS>({ entry: HOOKED })
    expect(await refusalOf(threads.run('crash', undefined as never))).toMatchObject({
      code: 'SEO_WORKER_FAILED',
      status: 503,
      data: { reason: 'crashed' },
    })
    expect((await threads.run('check', job('check', X.Z0))).items).toHaveLength(33)
  })

  test('a full queue is refused at once with SEO_BUSY (503, Retry-After); what was accepted is still answered', async () => {
    const threads = pool<typeof HOOKED_TASKS>({ entry: HOOKED, queueLimit: 1 })
    const running = threads.run('stall', 500)
    const queued = threads.run('check', job('check', X.E0))
    const refused = await refusalOf(threads.run('check', job('check', X.E0)))
    expect(refused).toMatchObject({ code: 'SEO_BUSY', status: 503, headers: { 'retry-after': '1' } })
    expect(await running).toBeNull()
    expect((await queued).items).toHaveLength(33)
  })

  test('after close, a call is refused rather than left waiting', async () => {
    const threads = pool()
    await threads.close()
    expect(await refusalOf(threads.run('check', job('check', X.E0)))).toMatchObject({ code: 'SEO_BUSY', status: 503 })
  })
})

test('SEO_WORKERS: one thread on a one- or two-core box by default, at most cores-1 (never below one), 0 for the request thread', () => {
  const most = Math.max(1, availableParallelism() - 1)
  expect(loadConfig({}).seoWorkers).toBe(Math.min(2, most))
  expect(loadConfig({ SEO_WORKERS: '0' }).seoWorkers).toBe(0)
  expect(loadConfig({ SEO_WORKERS: String(most) }).seoWorkers).toBe(most)
  expect(() => loadConfig({ SEO_WORKERS: String(most + 1) })).toThrow(`SEO_WORKERS: must be between 0 and ${most}, got ${most + 1}`)
})
