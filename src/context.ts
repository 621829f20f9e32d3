import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { SeoRunner } from './modules/seo/pool.ts'
import type { ChangeFeed } from './shared/changes.ts'
import type { Logger } from './shared/log.ts'
import type { Clock } from './shared/time.ts'

/** What every verb receives: plain services, never HTTP context. Built once in main.ts. */
export interface Ctx {
  config: Config
  db: Db
  log: Logger
  clock: Clock
  changes: ChangeFeed
  /** Whether an object exists in the media store (prefetched before an SEO check). */
  mediaExists(key: string): Promise<boolean>
  /** Where SEO checks run: the Worker pool of SEO_WORKERS, or this thread. */
  seo: SeoRunner
}
