// The delivery worker on its own: `bun src/modules/webhooks/worker-main.ts` (e.g. next to a
// server started with WEBHOOK_WORKER=off). Same loop, same SQLite file, same configuration.
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../config.ts'
import { migrateDatabase, openDatabase } from '../../db/client.ts'
import { createLogger } from '../../shared/log.ts'
import { createDeliveryWorker } from './worker.ts'

let config
try {
  config = loadConfig()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(`folio webhook worker: invalid configuration: ${error.message}`)
  process.exit(1)
}
const log = createLogger(config.logLevel)
const db = openDatabase(join(config.dataDir, 'folio.db'), { replication: config.dbReplication })
migrateDatabase(db)
const worker = createDeliveryWorker(db, config, log)
process.on('SIGTERM', () => worker.stop())
process.on('SIGINT', () => worker.stop())
log.info('webhook worker running', { dataDir: config.dataDir, pollMs: config.webhookPollMs })
await worker.run()
db.$client.close()
log.info('webhook worker stopped')
