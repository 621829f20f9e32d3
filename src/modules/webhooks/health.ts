import type { Config } from '../../config.ts'
import type { Queryable } from '../../db/client.ts'
import type { Clock } from '../../shared/time.ts'
import { countAhead } from './queue.ts'
import type { WorkerHandle } from './supervisor.ts'
import { policyHorizon } from './worker.ts'

/**
 * The webhook deliveries as `/healthz` shows them (`data.webhooks`): those due further ahead than
 * the retry policy allows (a wall clock that stepped back set them; the worker's next round makes
 * them due), and how many the embedded worker re-based since start (null when it runs apart,
 * `WEBHOOK_WORKER=off`).
 */
export function webhookHealth(db: Queryable, config: Pick<Config, 'webhookRetryDelaysMs'>, clock: Clock, worker: WorkerHandle | null) {
  return () => ({ aheadOfPolicy: countAhead(db, policyHorizon(config, clock().getTime())), rebased: worker?.rebased() ?? null })
}
