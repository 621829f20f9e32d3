import { DomainError } from '../../shared/errors.ts'
import type { Logger } from '../../shared/log.ts'

/** Pure functions of plain (structured-clone) data, by name: what a pool thread can run. */
export type TaskTable = Record<string, (arg: never) => unknown>
type Arg<F> = F extends (arg: infer A) => unknown ? A : never

/** Where the check's text passes run: a pool of Worker threads, or the caller's own thread (SEO_WORKERS=0). */
export interface TaskRunner<T extends TaskTable> {
  run<K extends keyof T & string>(task: K, arg: Arg<T[K]>): Promise<ReturnType<T[K]>>
  /** Ends the threads; a job still waiting is answered SEO_BUSY. */
  close(): Promise<void>
}

interface Refusal {
  code: string
  status: number
  message: string
  data: unknown
  headers: Readonly<Record<string, string>>
}
export type PoolRequest = { id: number; task: string; arg: unknown }
export type PoolReply = { id: number; result: unknown } | { id: number; refusal: Refusal } | { id: number; error: string }

/** Every pool thread is busy and the queue is full: the caller may retry in a moment. */
export class SeoBusy extends DomainError {
  constructor() {
    super('SEO_BUSY', 503, 'Every SEO check thread is busy and the queue is full; retry in a moment.', null, { 'retry-after': '1' })
  }
}

/** The job's thread overran the time bound or died: it was replaced, and this call is answered, never left hanging. */
export class SeoWorkerFailed extends DomainError {
  constructor(reason: 'timeout' | 'crashed', timeoutMs: number) {
    super(
      'SEO_WORKER_FAILED',
      503,
      reason === 'timeout'
        ? `The SEO check did not finish within ${timeoutMs / 1000} s; its thread was stopped and replaced.`
        : 'The SEO check thread stopped unexpectedly and was replaced; retry in a moment.',
      { reason },
      { 'retry-after': '1' },
    )
  }
}

/** Runs a task where it is called; a refusal (DomainError) stays a refusal on the other side of the thread. */
function answer(tasks: TaskTable, { id, task, arg }: PoolRequest): PoolReply {
  try {
    return { id, result: tasks[task]!(arg as never) }
  } catch (error) {
    if (error instanceof DomainError) {
      const { code, status, message, data, headers } = error
      return { id, refusal: { code, status, message, data, headers } }
    }
    return { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}

/** The body of a pool thread's entry module: answers each request with its task's result. */
export function serveTasks(tasks: TaskTable): void {
  const thread = self as unknown as { onmessage: ((event: MessageEvent<PoolRequest>) => void) | null; postMessage(reply: PoolReply): void }
  thread.onmessage = ({ data }) => thread.postMessage(answer(tasks, data))
}

/** SEO_WORKERS=0: tasks run on the caller's thread, as the CLI and the stdio MCP server do. */
export function inProcess<T extends TaskTable>(tasks: T): TaskRunner<T> {
  return {
    run: async (task, arg) => tasks[task]!(arg as never) as never,
    close: async () => {},
  }
}

export interface PoolOptions {
  size: number
  /** The thread's module: it calls `serveTasks` with the table the runner is typed by. */
  entry: string | URL
  /** Jobs waiting for a thread, beyond those running; one more is refused with SEO_BUSY. */
  queueLimit?: number
  /** A job running longer is abandoned and its thread replaced. */
  timeoutMs?: number
}

interface Pending {
  request: Omit<PoolRequest, 'id'>
  resolve(value: unknown): void
  reject(error: unknown): void
}

interface Slot {
  worker: Worker
  running: (Pending & { id: number; timer: Timer }) | null
}

/** A check of a maximal body costs about a second of CPU; ten leave room for a contended machine. */
const TIMEOUT_MS = 10_000
/**
 * Jobs that may wait per thread: enough for a script or agent fleet saving a few dozen posts at
 * once (eight was refused by 25 concurrent saves), few enough that the bodies held stay bounded.
 */
const QUEUE_PER_THREAD = 32

/**
 * A pool of Bun Workers that runs the check's text passes off the request thread, so one large
 * body never holds up other requests. Jobs carry plain data only; a thread runs one job at a
 * time; a full queue is refused at once (SEO_BUSY); a thread that crashes or overruns its time
 * bound is terminated and replaced, and its caller answered (SEO_WORKER_FAILED).
 */
export function createPool<T extends TaskTable>(options: PoolOptions, log: Logger): TaskRunner<T> {
  const { size, entry, queueLimit = QUEUE_PER_THREAD * size, timeoutMs = TIMEOUT_MS } = options
  const queue: Pending[] = []
  let nextId = 1
  let closed = false

  const settle = (slot: Slot, reply: PoolReply) => {
    const running = slot.running
    if (!running || running.id !== reply.id) return
    clearTimeout(running.timer)
    slot.running = null
    if ('result' in reply) running.resolve(reply.result)
    else if ('refusal' in reply) {
      const { code, status, message, data, headers } = reply.refusal
      running.reject(new DomainError(code, status, message, data, headers))
    } else running.reject(new Error(`SEO task ${running.request.task} failed in its thread: ${reply.error}`))
    next(slot)
  }

  const spawn = (): Slot => {
    const slot: Slot = { worker: new Worker(entry), running: null }
    slot.worker.addEventListener('message', ({ data }: MessageEvent<PoolReply>) => settle(slot, data))
    slot.worker.addEventListener('error', (event) => replace(slot, 'crashed', event.message))
    slot.worker.addEventListener('close', () => replace(slot, 'crashed', 'the thread exited'))
    return slot
  }
  const slots = Array.from({ length: size }, spawn)

  const dispatch = (slot: Slot, pending: Pending) => {
    const id = nextId++
    const timer = setTimeout(() => replace(slot, 'timeout', `no answer within ${timeoutMs} ms`), timeoutMs)
    slot.running = { ...pending, id, timer }
    slot.worker.postMessage({ id, ...pending.request } satisfies PoolRequest)
  }

  function next(slot: Slot) {
    const pending = queue.shift()
    if (pending) dispatch(slot, pending)
  }

  /** The slot's thread is dead or stuck: its job is answered, the thread replaced, the queue goes on. */
  function replace(slot: Slot, reason: 'timeout' | 'crashed', detail: string) {
    const index = slots.indexOf(slot)
    if (index < 0 || closed) return
    const running = slot.running
    if (running) clearTimeout(running.timer)
    slot.running = null
    slot.worker.terminate()
    log.error('seo worker replaced', { reason, detail, task: running?.request.task ?? null })
    running?.reject(new SeoWorkerFailed(reason, timeoutMs))
    const fresh = spawn()
    slots[index] = fresh
    next(fresh)
  }

  return {
    run: (task, arg) =>
      new Promise((resolve, reject) => {
        const pending: Pending = { request: { task, arg }, resolve: resolve as (value: unknown) => void, reject }
        if (closed) return reject(new SeoBusy())
        const idle = slots.find((slot) => slot.running === null)
        if (idle) return dispatch(idle, pending)
        if (queue.length >= queueLimit) return reject(new SeoBusy())
        queue.push(pending)
      }),
    close: async () => {
      closed = true
      for (const pending of queue.splice(0)) pending.reject(new SeoBusy())
      for (const slot of slots) {
        if (slot.running) clearTimeout(slot.running.timer)
        slot.running?.reject(new SeoBusy())
        slot.worker.terminate()
      }
    },
  }
}
