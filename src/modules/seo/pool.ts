import { DomainError } from '../../shared/errors.ts'
import type { Logger } from '../../shared/log.ts'
import { createWorkerPool } from '../../shared/worker-pool.ts'

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
  /** Jobs handed to one thread at once (1): more keep a thread busy while the caller's thread is. */
  perThread?: number
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
  const { size, entry, queueLimit = QUEUE_PER_THREAD * size, timeoutMs = TIMEOUT_MS, perThread } = options
  const pool = createWorkerPool<Omit<PoolRequest, 'id'>, PoolReply>({
    entry,
    size,
    perThread,
    queueLimit,
    stallMs: timeoutMs,
    // Threads start at the first check, not with the server: an idle server holds none (docs/memory.md).
    lazy: true,
    busy: () => new SeoBusy(),
    failed: (reason) => new SeoWorkerFailed(reason, timeoutMs),
    onReplaced: (reason, detail) => log.error('seo worker replaced', { reason, detail }),
  })
  return {
    run: async (task, arg) => {
      const reply = await pool.run({ task, arg })
      if ('result' in reply) return reply.result as never
      if ('refusal' in reply) {
        const { code, status, message, data, headers } = reply.refusal
        throw new DomainError(code, status, message, data, headers)
      }
      throw new Error(`SEO task ${task} failed in its thread: ${reply.error}`)
    },
    close: () => pool.close(),
  }
}
