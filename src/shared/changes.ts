import type { Db, Tx } from '../db/client.ts'
import type { PostRow } from '../modules/posts/repo.ts'
import type { PageRow } from '../modules/pages/repo.ts'

/** The webhook events of spec §6 a post change may raise, and the failure of a scheduled publish. */
export type PostEvent = 'blog.post.published' | 'blog.post.unpublished' | 'blog.post.deleted' | 'blog.post.schedule_failed'

/** Why a scheduled publish did not happen: its due time and the blocking checks that failed. */
export interface ScheduleFailure {
  scheduledAt: string
  failedItems: string[]
}

/** Something the public can see changed; recorded in the same transaction as the change itself. */
export type Change =
  | { kind: 'post'; event: PostEvent | null; before: PostRow | null; after: PostRow; scheduleFailure?: ScheduleFailure }
  | { kind: 'category' | 'tag' | 'author'; id: number }
  | { kind: 'settings' }
  /** Claps or approved comments of a post changed: public counts refresh on a bounded schedule, not per event. */
  | { kind: 'engagement'; postId: number }
  /** A reader posted a comment (pending or held as spam): nothing public changes; `blog.comment.created` tells the owners. */
  | { kind: 'comment'; commentId: number; postId: number }
  /** An import created or changed these resources: posts naming them in relatedProductIds show new cards. */
  | { kind: 'resources'; ids: number[] }
  /** A standalone page was created, edited, published, unpublished (`after` its new state) or deleted (`after` null). */
  | { kind: 'page'; before: PageRow | null; after: PageRow | null }

/** What a change refreshed, as the publish response reports it (spec §2.4). */
export interface ChangeEffects {
  sitemapUpdated: boolean
  rssUpdated: boolean
  webhookQueued: boolean
  /** Artifacts of the change that could not be brought up to date yet (retried; see `/healthz`). */
  artifactsFailed: number
}

/**
 * A consumer of changes: `inTransaction` writes its durable outbox rows (webhook deliveries,
 * artifact jobs) atomically with the change; `afterCommit` acts on them (renders, wakes a worker).
 */
export interface ChangeListener {
  inTransaction?(tx: Tx, change: Change): Partial<ChangeEffects> | void
  afterCommit?(change: Change): Promise<Partial<ChangeEffects> | void>
  /**
   * A write was announced before its transaction (its SEO check runs first: `ChangeFeed.expect`),
   * and later settled (committed, refused or failed). The render loop waits briefly for announced
   * writes, so changes that arrive together share one pass.
   */
  announced?(): void
  settled?(): void
}

const NO_EFFECTS: ChangeEffects = { sitemapUpdated: false, rssUpdated: false, webhookQueued: false, artifactsFailed: 0 }

const merge = (into: ChangeEffects, more: Partial<ChangeEffects> | void): ChangeEffects => {
  if (!more) return into
  return {
    sitemapUpdated: into.sitemapUpdated || !!more.sitemapUpdated,
    rssUpdated: into.rssUpdated || !!more.rssUpdated,
    webhookQueued: into.webhookQueued || !!more.webhookQueued,
    artifactsFailed: into.artifactsFailed + (more.artifactsFailed ?? 0),
  }
}

/** Hands a change to the feed, inside the transaction that makes it. */
export type RecordChange = (change: Change) => void

/** A write announced ahead of its transaction; `settle` (once, later calls do nothing) tells the listeners it is done. */
export interface Announcement {
  settle(): void
}

export class ChangeFeed {
  private readonly listeners: ChangeListener[] = []

  /**
   * Announces a write whose transaction comes after slower work (an SEO check on the pool). Settle
   * it when that write committed (`write` does, given the announcement) or will not happen.
   */
  expect(): Announcement {
    for (const l of this.listeners) l.announced?.()
    let open = true
    return {
      settle: () => {
        if (!open) return
        open = false
        for (const l of this.listeners) l.settled?.()
      },
    }
  }

  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener)
  }

  /**
   * Runs `work` in one immediate (write-locked) transaction; every change it records is handed
   * to the listeners inside that transaction, then again after the commit. A throw rolls back
   * the change and everything the listeners wrote for it.
   */
  async write<T>(
    db: Db,
    work: (tx: Tx, record: RecordChange) => T,
    announcement?: Announcement,
  ): Promise<{ result: T; effects: ChangeEffects }> {
    const changes: Change[] = []
    let effects = NO_EFFECTS
    const result = db.transaction(
      (tx) =>
        work(tx, (change) => {
          changes.push(change)
          for (const l of this.listeners) effects = merge(effects, l.inTransaction?.(tx, change))
        }),
      { behavior: 'immediate' },
    )
    // Committed: the announced write is no longer coming, before anyone waits on its renders.
    announcement?.settle()
    for (const change of changes) for (const l of this.listeners) if (l.afterCommit) effects = merge(effects, await l.afterCommit(change))
    return { result, effects }
  }
}
