/**
 * The Worker-thread machinery the SEO check pool (seo/pool.ts), the copies thread
 * (publishing/copies.ts) and the webhook worker's supervisor (webhooks/supervisor.ts) share:
 * start a thread and learn once that it died (`startThread`), answer requests by id with a stall
 * bound and replace a dead or stuck thread (`createWorkerPool`), end a thread within a grace
 * period (`Thread.end`), and the restart backoff (`restartDelay`). Bun marks `Worker`
 * experimental, so every caller must be answered whatever the thread does.
 */

/** A started Worker, seen from the thread that started it. */
export interface Thread<In> {
  /** `transfer`: buffers handed over rather than copied (the sender's views of them are emptied). */
  post(message: In, transfer?: Transferable[]): void
  /** Settles once the thread has stopped (its `close` event): nothing it does lands after that. */
  readonly stopped: Promise<void>
  /**
   * Ends the thread: terminates it and waits, at most `graceMs`, for it to have stopped. Its
   * death is then not reported as a failure.
   */
  end(graceMs: number): Promise<void>
}

export type ThreadFailure = 'error' | 'exited'

export interface ThreadOptions<Out> {
  /** False: an idle thread keeps no process alive. */
  ref?: boolean
  onMessage(data: Out): void
  /** The thread threw or exited on its own; called at most once, never after `end`. */
  onFailure(reason: ThreadFailure, detail: string): void
}

/** Resolves after `ms`, or with `promise` if that settles first; leaves no timer behind. */
export async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: Timer | undefined
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}

export function startThread<In, Out>(entry: string | URL, options: ThreadOptions<Out>): Thread<In> {
  const worker = new Worker(entry, { ref: options.ref ?? true })
  let over = false
  const fail = (reason: ThreadFailure, detail: string) => {
    if (over) return
    over = true
    options.onFailure(reason, detail)
  }
  const stopped = new Promise<void>((resolve) => worker.addEventListener('close', () => resolve()))
  worker.addEventListener('message', ({ data }: MessageEvent<Out>) => options.onMessage(data))
  worker.addEventListener('error', (event) => fail('error', event.message))
  void stopped.then(() => fail('exited', 'the thread exited'))
  return {
    post: (message, transfer) => worker.postMessage(message, transfer ?? []),
    stopped,
    async end(graceMs) {
      over = true
      worker.terminate()
      await within(stopped, graceMs)
    },
  }
}

/** Exponential restart delay after `failures` failures in a row: base, 2×base, 4×base… capped at `maxMs`. */
export function restartDelay(failures: number, baseMs = 100, maxMs = 60_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1))
}

/**
 * How long a lazy pool keeps a thread without work: a loaded thread holds 20-50 MB (docs/memory.md)
 * and costs a few hundred ms to start again, so a burst keeps it and an idle server gives it back.
 */
const IDLE_MS = 60_000

export interface WorkerPoolOptions {
  entry: string | URL
  /** Threads at most. */
  size: number
  /** Requests one thread is handed at once: 1 runs one job at a time, more pipelines them. */
  perThread?: number
  /** Requests waiting for a thread beyond those handed out; one more is refused (`busy`). */
  queueLimit?: number
  /** A thread with requests outstanding that answers none for this long is stuck: it is replaced. */
  stallMs: number
  /**
   * A dead or stuck thread's unanswered requests are refused once it has stopped (true: nothing it
   * had under way lands after the refusal; bounded by `stallMs`), or at once (false).
   */
  refuseAfterStop?: boolean
  /** Threads are started at the first request that needs one (true), or all at once (false). */
  lazy?: boolean
  /**
   * With `lazy`: a thread left without requests this long is ended (the next request starts
   * another), so an idle server holds no pool thread's heap (docs/memory.md); a minute by default.
   */
  idleMs?: number
  ref?: boolean
  /** The refusal of a request when the queue is full or the pool closed. */
  busy(): Error
  /** The refusal of a request whose thread died (`crashed`) or stalled (`timeout`). */
  failed(reason: 'timeout' | 'crashed'): Error
  /** Told of each replaced thread, for the log. */
  onReplaced?(reason: 'timeout' | 'crashed', detail: string, unanswered: number): void
  /** The buffers of a request handed to its thread rather than copied (`ownedBuffers`); none by default. */
  transfer?(request: object): Transferable[]
}

/**
 * The buffer behind `bytes` when it holds nothing else (a `Buffer.from` of a string has one of its
 * own), for a `transfer` list: the thread then gets the bytes without a copy, and the sender's
 * view is emptied, so only a sender done with them may hand them over. A view into a larger or
 * shared buffer is copied as usual (none).
 */
export function ownedBuffers(bytes: Uint8Array | null | undefined): Transferable[] {
  if (!bytes || !(bytes.buffer instanceof ArrayBuffer)) return []
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.byteLength > 0 ? [bytes.buffer] : []
}

export interface WorkerPool<Req, Reply> {
  /** Posts `{ ...request, id }` to a thread; resolves with the thread's reply carrying that id. */
  run(request: Req): Promise<Reply>
  /** Ends the threads (with `refuseAfterStop`, waiting, bounded, for each to stop); requests outstanding or queued are refused `busy`. */
  close(): Promise<void>
}

interface Call {
  request: object
  resolve(reply: never): void
  reject(error: Error): void
}

interface Slot {
  thread: Thread<object>
  running: Map<number, Call>
  stall: Timer | undefined
  idle: Timer | undefined
}

/**
 * Requests answered by Worker threads, by id. A thread is handed at most `perThread` requests; the
 * rest wait in a bounded queue. A thread that dies or stalls is ended and its unanswered requests
 * are refused with `failed` (at once, or once it has stopped: `refuseAfterStop`); a replacement is started at once when requests wait, or else at the next request
 * (`lazy`) or at once (not lazy).
 */
export function createWorkerPool<Req extends object, Reply extends { id: number }>(options: WorkerPoolOptions): WorkerPool<Req, Reply> {
  const { entry, size, perThread = 1, queueLimit = Infinity, stallMs, lazy = false, idleMs = IDLE_MS } = options
  const slots: (Slot | null)[] = Array.from({ length: size }, () => null)
  const queue: Call[] = []
  let lastId = 0
  let closed = false

  const watch = (slot: Slot) => {
    clearTimeout(slot.stall)
    clearTimeout(slot.idle)
    slot.stall = slot.running.size ? setTimeout(() => void replace(slot, 'timeout', `no answer within ${stallMs} ms`), stallMs) : undefined
    slot.idle = !slot.running.size && lazy ? setTimeout(() => retire(slot), idleMs).unref() : undefined
  }

  /** Ends a thread that stayed idle; its slot is started again by the next request. */
  function retire(slot: Slot): void {
    const index = slots.indexOf(slot)
    if (index < 0 || slot.running.size) return
    slots[index] = null
    void slot.thread.end(stallMs)
  }

  function start(index: number): Slot {
    const slot: Slot = {
      running: new Map(),
      stall: undefined,
      idle: undefined,
      thread: startThread<object, Reply>(entry, {
        ref: options.ref,
        onMessage: (reply) => {
          const call = slot.running.get(reply.id)
          if (!call) return
          slot.running.delete(reply.id)
          call.resolve(reply as never)
          dispatch()
          watch(slot)
        },
        onFailure: (_reason, detail) => void replace(slot, 'crashed', detail),
      }),
    }
    slots[index] = slot
    return slot
  }

  /** Hands waiting requests to threads with room, starting threads where a slot is empty. */
  function dispatch(): void {
    while (queue.length && !closed) {
      let slot = slots.find((s) => s !== null && s.running.size < perThread)
      if (!slot) {
        const empty = slots.indexOf(null)
        if (empty < 0) return
        slot = start(empty)
      }
      const call = queue.shift()!
      const id = ++lastId
      const idle = slot.running.size === 0
      slot.running.set(id, call)
      slot.thread.post({ ...call.request, id }, options.transfer?.(call.request))
      if (idle) watch(slot)
    }
  }

  async function replace(slot: Slot, reason: 'timeout' | 'crashed', detail: string): Promise<void> {
    const index = slots.indexOf(slot)
    if (index < 0) return
    slots[index] = null
    clearTimeout(slot.stall)
    clearTimeout(slot.idle)
    const unanswered = [...slot.running.values()]
    slot.running.clear()
    options.onReplaced?.(reason, detail, unanswered.length)
    if (!closed && (queue.length || !lazy)) start(index)
    dispatch()
    const ended = slot.thread.end(stallMs)
    if (options.refuseAfterStop) await ended
    for (const call of unanswered) call.reject(options.failed(reason))
  }

  if (!lazy) for (let i = 0; i < size; i++) start(i)

  return {
    run: (request) =>
      new Promise<Reply>((resolve, reject) => {
        if (closed) return reject(options.busy())
        const room = slots.some((s) => s === null || s.running.size < perThread)
        if (!room && queue.length >= queueLimit) return reject(options.busy())
        queue.push({ request, resolve: resolve as (reply: never) => void, reject })
        dispatch()
      }),
    async close() {
      closed = true
      for (const call of queue.splice(0)) call.reject(options.busy())
      await Promise.all(
        slots.map(async (slot, index) => {
          if (!slot) return
          slots[index] = null
          clearTimeout(slot.stall)
          clearTimeout(slot.idle)
          const unanswered = [...slot.running.values()]
          slot.running.clear()
          const ended = slot.thread.end(stallMs)
          if (options.refuseAfterStop) await ended
          for (const call of unanswered) call.reject(options.busy())
        }),
      )
    },
  }
}

/**
 * One background Worker thread of the render engine (the copies thread, the placing thread):
 * started at the first request, every request handed to it at once and answered in order,
 * keeping no process alive while idle. A thread that dies or answers nothing for `stallMs` is
 * ended and logged; its unanswered requests are refused once it has stopped (nothing it had
 * under way lands after the refusal), and the next request starts a fresh one.
 */
export function backgroundThread<Req extends object, Reply extends { id: number }>(options: {
  /** What the thread is called in errors and the log: `copies thread`. */
  name: string
  entry: string | URL
  stallMs: number
  log: { error(message: string, fields: Record<string, unknown>): void }
  /** The buffers a request hands over rather than copies (`ownedBuffers`). */
  transfer?(request: Req): Transferable[]
}): WorkerPool<Req, Reply> {
  const { name, log, transfer } = options
  return createWorkerPool<Req, Reply>({
    entry: options.entry,
    size: 1,
    perThread: Infinity,
    stallMs: options.stallMs,
    lazy: true,
    refuseAfterStop: true,
    ref: false,
    busy: () => new Error(`the ${name} is closed`),
    failed: (reason) => new Error(`the ${name} ${reason === 'timeout' ? 'stalled' : 'exited'}`),
    onReplaced: (reason, detail, unanswered) =>
      log.error(`${name} replaced`, { reason: reason === 'timeout' ? 'stalled' : 'exited', detail, unanswered }),
    transfer: transfer && ((request) => transfer(request as Req)),
  })
}
