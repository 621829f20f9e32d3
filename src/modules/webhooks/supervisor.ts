import type { Config } from '../../config.ts'
import type { Logger } from '../../shared/log.ts'
import { restartDelay, startThread, within, type Thread } from '../../shared/worker-pool.ts'
import type { WorkerConfig } from './worker.ts'

export type WorkerInbox =
  | { type: 'start'; dbFile: string; config: WorkerConfig & Pick<Config, 'logLevel' | 'dbReplication'>; clockOffset?: Float64Array }
  | { type: 'wake' }
  | { type: 'stop' }
export type WorkerOutbox = { type: 'round'; rebased: number } | { type: 'stopped' }

export interface WorkerHandle {
  /** Fire-and-forget: a dead or busy worker never makes the caller wait or fail. */
  wake(): void
  /** Lets the batch in flight finish (bounded), then ends the thread. */
  stop(): Promise<void>
  /** How many times the thread was replaced since start. */
  restarts(): number
  /** Deliveries re-based after a wall-clock step (due too far ahead) since start, as the threads reported them. */
  rebased(): number
}

const MAX_BACKOFF_MS = 60_000
/** A thread that lived this long is healthy again: the next failure starts the backoff afresh. */
const HEALTHY_AFTER_MS = 60_000
const STOP_GRACE_MS = 3_000
/**
 * A wake waits this long: the response of the request that queued a delivery goes out before the
 * worker competes with it for CPU and the SQLite write lock, and a burst of commits is one round.
 */
const WAKE_DELAY_MS = 20

/**
 * Runs the delivery loop in a Bun `Worker` and keeps it alive. Bun marks `Worker` experimental,
 * so the main thread watches it: a thread that exits, throws, or stops reporting rounds is
 * replaced, with an exponential backoff capped at a minute so a thread that dies at once cannot
 * spin. Nothing is lost meanwhile: deliveries wait in SQLite, and claims of the dead thread
 * expire. `entry` is replaceable so the supervision itself can be tested; `clockOffset` (shared
 * memory) gives the thread the server's moved clock under a test (shared/time.ts `offsetClock`).
 */
export function superviseWorker(
  config: Config,
  dbFile: string,
  log: Logger,
  entry: string | URL = new URL('./worker-thread.ts', import.meta.url),
  clockOffset?: Float64Array,
): WorkerHandle {
  const { webhookRetryDelaysMs, webhookPollMs, webhookTimeoutMs, webhookAllowPrivate, logLevel, dbReplication, purge, siteUrl, indexNow } =
    config
  const init: WorkerInbox = {
    type: 'start',
    dbFile,
    config: {
      webhookRetryDelaysMs: [...webhookRetryDelaysMs],
      webhookPollMs,
      webhookTimeoutMs,
      webhookAllowPrivate,
      logLevel,
      dbReplication,
      purge,
      siteUrl,
      indexNow,
    },
    clockOffset,
  }
  // A round lasts at most one attempt timeout plus one poll interval; four missed rounds is a stall.
  const staleMs = 4 * (webhookTimeoutMs + webhookPollMs) + 5_000
  let current: Thread<WorkerInbox> | null = null
  let stopping = false
  let failures = 0
  let replaced = 0
  let startedAt = 0
  let lastRound = 0
  // Re-based deliveries: what replaced threads reported, and what the current one reports.
  let rebasedBefore = 0
  let rebasedNow = 0
  let pending: ReturnType<typeof setTimeout> | null = null
  let wakeTimer: ReturnType<typeof setTimeout> | null = null
  /** Told when the current thread reports it has stopped (see `stop`). */
  let onStopped = () => {}

  const spawn = () => {
    pending = null
    if (stopping) return
    startedAt = lastRound = Date.now()
    const thread: Thread<WorkerInbox> = startThread<WorkerInbox, WorkerOutbox>(entry, {
      onMessage: (message) => {
        if (message?.type === 'round') {
          lastRound = Date.now()
          rebasedNow = message.rebased
        }
        if (message?.type === 'stopped') onStopped()
      },
      onFailure: (reason, detail) => {
        if (reason === 'error') log.error('webhook worker error', { error: detail })
        void replace(thread, reason === 'error' ? 'error' : 'exited')
      },
    })
    current = thread
    thread.post(init)
  }

  const replace = async (thread: Thread<WorkerInbox>, reason: string) => {
    if (current !== thread || stopping) return
    current = null
    rebasedBefore += rebasedNow
    rebasedNow = 0
    failures = Date.now() - startedAt > HEALTHY_AFTER_MS ? 1 : failures + 1
    replaced++
    const delay = restartDelay(failures, 100, MAX_BACKOFF_MS)
    log.warn('webhook worker replaced', { reason, restartInMs: delay, restarts: replaced })
    pending = setTimeout(spawn, delay)
    await thread.end(STOP_GRACE_MS)
  }

  const watchdog = setInterval(
    () => {
      if (current && Date.now() - lastRound > staleMs) void replace(current, 'stalled')
    },
    Math.min(staleMs, 5_000),
  )
  watchdog.unref()
  spawn()

  return {
    wake() {
      wakeTimer ??= setTimeout(() => {
        wakeTimer = null
        try {
          current?.post({ type: 'wake' })
        } catch (error) {
          log.warn('webhook worker wake failed', { error: String(error) })
        }
      }, WAKE_DELAY_MS)
    },
    async stop() {
      stopping = true
      clearInterval(watchdog)
      if (pending) clearTimeout(pending)
      if (wakeTimer) clearTimeout(wakeTimer)
      const thread = current
      current = null
      if (!thread) return
      const stopped = new Promise<void>((resolve) => (onStopped = resolve))
      thread.post({ type: 'stop' })
      // The batch in flight finishes (bounded), then the thread ends.
      await within(Promise.race([stopped, thread.stopped]), STOP_GRACE_MS)
      await thread.end(STOP_GRACE_MS)
    },
    restarts: () => replaced,
    rebased: () => rebasedBefore + rebasedNow,
  }
}
