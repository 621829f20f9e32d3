import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import type { CheckTasks } from './modules/posts/check-tasks.ts'
import type { TaskRunner } from './modules/seo/pool.ts'
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
  /** Where the passes over a post's text and HTML run (check-tasks.ts): the SEO_WORKERS pool, or this thread. */
  seo: TaskRunner<CheckTasks>
}
