import { join } from 'node:path'
import type { Config } from './config.ts'
import type { Ctx } from './context.ts'
import { openDatabase } from './db/client.ts'
import { schemaIsCurrent } from './db/version.ts'
import type { Logger } from './shared/log.ts'
import { systemClock } from './shared/time.ts'

/**
 * What a CLI command that neither renders nor announces a change needs (`token list`, `user list`,
 * `webhook add`…): the database and the plain services, without the web framework, the renderer,
 * the workers or the migrator, so the command starts at once (docs/benchmarks.md, "CLI start").
 */
export interface CliService {
  ctx: Pick<Ctx, 'config' | 'db' | 'log' | 'clock'>
  close(): Promise<void>
}

/** The light service, or null when the database is not at this Folio's schema (the full compose migrates it, or refuses). */
export function openCliService(config: Config, log: Logger): CliService | null {
  const db = openDatabase(join(config.dataDir, 'folio.db'), { replication: config.dbReplication })
  if (!schemaIsCurrent(db.$client)) {
    db.$client.close()
    return null
  }
  return { ctx: { config, db, log, clock: systemClock }, close: async () => db.$client.close() }
}
