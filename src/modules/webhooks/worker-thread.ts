// The Bun Worker entry started by supervisor.ts: the delivery loop on its own SQLite connection.
import { openDatabase } from '../../db/client.ts'
import { createLogger } from '../../shared/log.ts'
import { offsetClock } from '../../shared/time.ts'
import type { WorkerInbox, WorkerOutbox } from './supervisor.ts'
import { createDeliveryWorker, type DeliveryWorker } from './worker.ts'

declare const self: { onmessage: ((event: MessageEvent<WorkerInbox>) => void) | null; postMessage(message: WorkerOutbox): void }

let worker: DeliveryWorker | null = null

self.onmessage = ({ data }) => {
  if (data.type === 'start' && !worker) {
    const db = openDatabase(data.dbFile, { replication: data.config.dbReplication })
    const log = createLogger(data.config.logLevel)
    worker = createDeliveryWorker(
      db,
      data.config,
      log,
      (rebased) => self.postMessage({ type: 'round', rebased }),
      offsetClock(data.clockOffset),
    )
    void worker.run().then(() => {
      db.$client.close()
      self.postMessage({ type: 'stopped' })
      process.exit(0)
    })
  } else if (data.type === 'wake') worker?.wake()
  else if (data.type === 'stop') worker?.stop()
}
