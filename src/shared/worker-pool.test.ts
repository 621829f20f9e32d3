import { afterAll, describe, expect, test } from 'bun:test'
import { createWorkerPool, restartDelay, startThread, type WorkerPool, type WorkerPoolOptions } from './worker-pool.ts'

const ENTRY = new URL('./worker-pool-test-thread.ts', import.meta.url)
type Req = { say: string; ms?: number }
type Reply = { id: number; echo: string }
class Busy extends Error {}
class Failed extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

const pools: WorkerPool<Req, Reply>[] = []
afterAll(async () => {
  for (const pool of pools) await pool.close()
})
const replaced: string[] = []
function pool(options: Partial<WorkerPoolOptions> = {}): WorkerPool<Req, Reply> {
  const made = createWorkerPool<Req, Reply>({
    entry: ENTRY,
    size: 1,
    stallMs: 5_000,
    busy: () => new Busy(),
    failed: (reason) => new Failed(reason),
    onReplaced: (reason) => void replaced.push(reason),
    ...options,
  })
  pools.push(made)
  return made
}
const outcome = (promise: Promise<Reply>) =>
  promise.then(
    (reply) => reply.echo,
    (error: Error) => (error instanceof Failed ? `failed:${error.reason}` : error instanceof Busy ? 'busy' : String(error)),
  )

describe('createWorkerPool', () => {
  test('answers each request with its own reply, by id, across threads and pipelined', async () => {
    for (const options of [{ size: 3 }, { size: 1, perThread: Infinity, lazy: true }]) {
      const threads = pool(options)
      const says = Array.from({ length: 40 }, (_, i) => `n${i}`)
      expect(await Promise.all(says.map((say) => threads.run({ say }).then((r) => r.echo)))).toEqual(says)
    }
  })

  test('a thread that dies or throws: its request is refused `crashed`, the queue goes on on a replacement', async () => {
    for (const say of ['crash', 'throw']) {
      const threads = pool()
      const results = await Promise.all([say, 'after', 'and after'].map((s) => outcome(threads.run({ say: s }))))
      expect(results).toEqual(['failed:crashed', 'after', 'and after'])
    }
  })

  test('a stuck thread: its requests are refused `timeout` within the bound, the next runs on a replacement', async () => {
    // The bound counts from a request's handing-out, a fresh thread's start included: 1.5 s, since a
    // replacement's start took over 200 ms on a loaded CI box (near a second under a load of 15)
    // and its first answer was refused too. The stuck request would take longer still.
    const threads = pool({ stallMs: 1_500, perThread: Infinity, lazy: true, refuseAfterStop: true })
    const stuck = [outcome(threads.run({ say: 'stall', ms: 10_000 })), outcome(threads.run({ say: 'behind it' }))]
    expect(await Promise.all(stuck)).toEqual(['failed:timeout', 'failed:timeout'])
    expect(replaced).toContain('timeout')
    expect(await outcome(threads.run({ say: 'fresh' }))).toBe('fresh')
  })

  test('a lazy pool ends a thread left idle past idleMs; the next request starts another', async () => {
    const kept = pool({ lazy: true, idleMs: 60_000 })
    const first = await outcome(kept.run({ say: 'who' }))
    expect(await outcome(kept.run({ say: 'who' }))).toBe(first)
    const retiring = pool({ lazy: true, idleMs: 0 })
    const before = await outcome(retiring.run({ say: 'who' }))
    // The retirement's timer was set before the reply was handed over: a timer set now fires after it.
    await new Promise((resolve) => setTimeout(resolve, 0))
    const after = await outcome(retiring.run({ say: 'who' }))
    expect(after).toMatch(/^thread \d+$/)
    expect(after).not.toBe(before)
  })

  test('a full queue is refused at once; what was accepted is answered; after close every call is refused', async () => {
    const threads = pool({ queueLimit: 1 })
    const running = outcome(threads.run({ say: 'stall', ms: 300 }))
    const queued = outcome(threads.run({ say: 'queued' }))
    expect(await outcome(threads.run({ say: 'one too many' }))).toBe('busy')
    expect(await Promise.all([running, queued])).toEqual(['stall', 'queued'])
    const waiting = outcome(threads.run({ say: 'stall', ms: 300 }))
    await threads.close()
    expect(await waiting).toBe('busy')
    expect(await outcome(threads.run({ say: 'late' }))).toBe('busy')
  })
})

describe('startThread', () => {
  test('reports a death once, and none for a thread it ended', async () => {
    const failures: string[] = []
    let crashed!: () => void
    const gone = new Promise<void>((resolve) => (crashed = resolve))
    const dying = startThread<Req & { id: number }, Reply>(ENTRY, {
      onMessage: () => {},
      onFailure: (reason) => {
        failures.push(reason)
        crashed()
      },
    })
    dying.post({ id: 1, say: 'crash' })
    await gone
    await dying.stopped
    expect(failures).toEqual(['exited'])

    let heard!: (echo: string) => void
    const answered = new Promise<string>((resolve) => (heard = resolve))
    const ended = startThread<Req & { id: number }, Reply>(ENTRY, {
      onMessage: (r) => heard(r.echo),
      onFailure: (r) => void failures.push(r),
    })
    ended.post({ id: 1, say: 'hello' })
    expect(await answered).toBe('hello')
    await ended.end(5_000)
    expect(failures).toEqual(['exited'])
  })
})

test('restartDelay doubles from the base up to the cap', () => {
  expect([1, 2, 3, 4, 5].map((n) => restartDelay(n))).toEqual([100, 200, 400, 800, 1600])
  expect(restartDelay(30)).toBe(60_000)
  expect(restartDelay(3, 1_000, 2_500)).toBe(2_500)
})
