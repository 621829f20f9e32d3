import { DomainError } from '../../shared/errors.ts'
import type { Logger } from '../../shared/log.ts'
import type { AutofixOutcome } from './autofix.ts'
import type { SeoCheckResult } from './types.ts'
import { runSeoJob, type SeoJob } from './world-facts.ts'

export type PoolRequest = { id: number; job: SeoJob }
export type PoolReply = { id: number; result: SeoCheckResult | AutofixOutcome } | { id: number; error: string }

/** Where SEO jobs run: a pool of Worker threads, or the caller's own thread (SEO_WORKERS=0). */
export interface SeoRunner {
  check(job: Omit<SeoJob, 'task'>): Promise<SeoCheckResult>
  autofix(job: Omit<SeoJob, 'task'>): Promise<AutofixOutcome>
  /** Ends the threads; a job still waiting is answered SEO_BUSY. */
  close(): Promise<void>
}

/** Every pool thread is busy and the queue is full: the caller may retry in a moment. */
export class SeoBusy extends DomainError {
  constructor() {
    super('SEO_BUSY', 503, 'Every SEO check thread is busy and the queue is full; retry in a moment.', null, { 'retry-after': '1' })
  }
}

/** The job's thread exceeded the time bound or died: it was replaced, and this call is answered, never left hanging. */
export class SeoWorkerFailed extends DomainError {
  constructor(reason: 'timeout' | 'crashed', timeoutMs: number) {
    super(
      'SEO_WORKER_FAILED',
      503,
      reason === 'timeout'
        ? `The SEO check did not finish within ${timeoutMs / 1000} s; its thread was stopped and replaced.`
        : 'The SEO check thread stopped unexpectedly; it was replaced. Retry in a moment.',
      { reason },
      { 'retry-after': '1' },
    )
  }
}

const runner = (run: (job: SeoJob) => Promise<unknown>, close: () => Promise<void>): SeoRunner => ({
  check: (job) => run({ ...job, task: 'check' }) as Promise<SeoCheckResult>,
  autofix: (job) => run({ ...job, task: 'autofix' }) as Promise<AutofixOutcome>,
  close,
})

/** SEO_WORKERS=0: jobs run on the caller's thread, as the CLI and the stdio MCP server may. */
export const inProcessSeo = (): SeoRunner =>
  runner(
    async (job) => runSeoJob(job),
    async () => {},
  )

export interface SeoPoolOptions {
  size: number
  /** Jobs waiting for a thread, beyond those running; one more is refused with SEO_BUSY. */
  queueLimit?: number
  /** A job running longer is abandoned and its thread replaced. */
  timeoutMs?: number
  /** The thread's module; replaceable so the pool's crash handling can be tested. */
  entry?: string | URL
}

interface Pending {
  job: SeoJob
  resolve(value: unknown): void
  reject(error: unknown): void
}

interface Slot {
  worker: Worker
  running: (Pending & { id: number; timer: Timer }) | null
}

/** A job on a maximal body costs about a second of CPU; ten leaves room for a contended machine. */
const TIMEOUT_MS = 10_000
const QUEUE_PER_THREAD = 8

/**
 * A pool of Bun Workers that runs SEO jobs off the request thread, so a check of a large body
 * never holds up other requests. Jobs carry plain data only (the input and its world facts); a
 * thread runs one job at a time; a full queue is refused at once (SEO_BUSY), and a thread that
 * crashes or overruns its time bound is terminated and replaced, its caller answered.
 */
export function createSeoPool(options: SeoPoolOptions, log: Logger): SeoRunner {
  const { size, queueLimit = QUEUE_PER_THREAD * size, timeoutMs = TIMEOUT_MS } = options
  const entry = options.entry ?? new URL('./pool-worker.ts', import.meta.url)
  const queue: Pending[] = []
  let nextId = 1
  let closed = false

  const spawn = (): Slot => {
    const slot: Slot = { worker: new Worker(entry), running: null }
    slot.worker.addEventListener('message', ({ data }: MessageEvent<PoolReply>) => {
      const running = slot.running
      if (!running || running.id !== data.id) return
      clearTimeout(running.timer)
      slot.running = null
      if ('error' in data) running.reject(new Error(`SEO job failed in its worker: ${data.error}`))
      else running.resolve(data.result)
      next(slot)
    })
    slot.worker.addEventListener('error', (event) => fail(slot, 'crashed', event.message))
    slot.worker.addEventListener('close', () => fail(slot, 'crashed', 'the thread exited'))
    return slot
  }
  const slots = Array.from({ length: size }, spawn)

  const dispatch = (slot: Slot, pending: Pending) => {
    const id = nextId++
    const timer = setTimeout(() => fail(slot, 'timeout', `no answer within ${timeoutMs} ms`), timeoutMs)
    slot.running = { ...pending, id, timer }
    slot.worker.postMessage({ id, job: pending.job } satisfies PoolRequest)
  }

  const next = (slot: Slot) => {
    const pending = queue.shift()
    if (pending) dispatch(slot, pending)
  }

  /** The slot's thread is dead or stuck: its job is answered, the thread replaced, the queue goes on. */
  function fail(slot: Slot, reason: 'timeout' | 'crashed', detail: string) {
    const index = slots.indexOf(slot)
    if (index < 0 || closed) return
    const running = slot.running
    if (running) clearTimeout(running.timer)
    slot.running = null
    slot.worker.terminate()
    log.error('seo worker replaced', { reason, detail, busy: running !== null })
    running?.reject(new SeoWorkerFailed(reason, timeoutMs))
    const fresh = spawn()
    slots[index] = fresh
    next(fresh)
  }

  const run = (job: SeoJob) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(new SeoBusy())
      const idle = slots.find((slot) => slot.running === null)
      if (idle) return dispatch(idle, { job, resolve, reject })
      if (queue.length >= queueLimit) return reject(new SeoBusy())
      queue.push({ job, resolve, reject })
    })

  const close = async () => {
    closed = true
    for (const pending of queue.splice(0)) pending.reject(new SeoBusy())
    for (const slot of slots) {
      if (slot.running) clearTimeout(slot.running.timer)
      slot.running?.reject(new SeoBusy())
      slot.worker.terminate()
    }
  }
  return runner(run, close)
}
