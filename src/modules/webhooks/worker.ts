import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import type { Logger } from '../../shared/log.ts'
import { cuttableDelay, systemClock, type Clock } from '../../shared/time.ts'
import { recordAttempt, send } from './deliver.ts'
import { claimDue, nextDueAt, rebaseAhead, type ClaimedDelivery } from './queue.ts'
import { attemptsLabel, maxAttempts } from './retry-policy.ts'
import { latestHonestDue } from '../../shared/clock-steps.ts'

export type WorkerConfig = Pick<
  Config,
  'webhookRetryDelaysMs' | 'webhookPollMs' | 'webhookTimeoutMs' | 'webhookAllowPrivate' | 'purge' | 'siteUrl' | 'indexNow'
>

/** Deliveries sent at once; bounds memory and sockets whatever the backlog. */
export const BATCH_SIZE = 32

/** The latest due time the retry policy can honestly give a delivery at `now`: later ones a stepped-back clock set. */
export const policyHorizon = (config: Pick<Config, 'webhookRetryDelaysMs'>, now: number): number =>
  latestHonestDue(now, Math.max(0, ...config.webhookRetryDelaysMs))

/** A claim outlives the slowest attempt (timeout + recording) with room to spare. */
export const leaseMs = (config: WorkerConfig): number => 2 * config.webhookTimeoutMs + 1000

export interface DeliveryWorker {
  /** Loops until `stop()`; resolves once the batch in flight is recorded. */
  run(): Promise<void>
  /** Look for due deliveries now instead of at the next poll. */
  wake(): void
  stop(): void
}

/**
 * The delivery loop. It keeps nothing in memory between rounds: every round claims due rows from
 * SQLite, sends them, records the outcome, then sleeps until the next row is due (at most one poll
 * interval, so rows written by another process are seen too) or until woken. `onRound` hears
 * each round begin, with how many deliveries were re-based after clock steps since start.
 */
export function createDeliveryWorker(
  db: Db,
  config: WorkerConfig,
  log: Logger,
  onRound: (rebased: number) => void = () => {},
  clock: Clock = systemClock,
): DeliveryWorker {
  let stopped = false
  let rebasedTotal = 0
  let woken = false
  let interrupt: (() => void) | null = null

  const sleep = (ms: number) => {
    const delay = cuttableDelay(woken || stopped ? 0 : ms)
    interrupt = delay.cut
    return delay.done.then(() => {
      interrupt = null
      woken = false
    })
  }

  async function deliver(delivery: ClaimedDelivery) {
    const result = await send(delivery, config)
    const verdict = recordAttempt(db, delivery, result, config.webhookRetryDelaysMs, clock())
    const fields = {
      deliveryId: delivery.id,
      receiverId: delivery.receiverId,
      receiverUrl: delivery.url,
      event: delivery.event,
      attempts: attemptsLabel(delivery.attempts + 1, maxAttempts(config.webhookRetryDelaysMs)),
      httpStatus: result.httpStatus,
      durationMs: result.durationMs,
    }
    if (verdict.kind === 'delivered') log.debug('webhook delivered', fields)
    else if (verdict.kind === 'retry')
      log.warn('webhook attempt failed', { ...fields, reason: result.failureReason, nextAttemptAt: new Date(verdict.at).toISOString() })
    else log.error('webhook delivery failed', { ...fields, reason: result.failureReason, final: verdict.kind })
  }

  async function round(): Promise<number> {
    const now = clock().getTime()
    const rebased = rebaseAhead(db, now, policyHorizon(config, now))
    rebasedTotal += rebased
    if (rebased) log.warn('webhook deliveries due too far ahead (the clock stepped back): due now', { rebased })
    const batch = claimDue(db, now, BATCH_SIZE, leaseMs(config))
    await Promise.all(batch.map(deliver))
    return batch.length
  }

  return {
    async run() {
      while (!stopped) {
        onRound(rebasedTotal)
        try {
          if ((await round()) === BATCH_SIZE) continue
          const next = nextDueAt(db)
          const wait = next === null ? config.webhookPollMs : Math.min(config.webhookPollMs, next - clock().getTime())
          // A floor keeps a row that is due but not claimable from spinning the loop.
          await sleep(Math.max(5, wait))
        } catch (error) {
          // SQLite busy beyond its timeout, a full disk...: the rows are intact; try again later.
          log.error('webhook worker round failed', { error: error instanceof Error ? error.message : String(error) })
          await sleep(config.webhookPollMs)
        }
      }
    },
    wake() {
      woken = true
      interrupt?.()
    },
    stop() {
      stopped = true
      interrupt?.()
    },
  }
}
