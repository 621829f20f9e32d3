import type { Db } from '../../db/client.ts'
import { forgetHashes, hashesOf, manifest, markStale, nextSeq, pendingPaths, stillPending } from './jobs.ts'
import type { ArtifactCache } from './memory.ts'
import { findDamaged } from './verify.ts'

/**
 * What the integrity check looks at: `pending`, the files of jobs still waiting (a crash repair:
 * a pass killed between its renames and its closing write left exactly those, renamed in and not
 * recorded), or `all`, every file the manifest names (`rebuild --verify`, the background check).
 */
type VerifyScope = 'pending' | 'all'

/** The background check's reading pace: a whole CACHE_DIR of 1 GB is read in about two minutes. */
export const VERIFY_BYTES_PER_SECOND = 8 * 1024 * 1024

/** The manifest's hash of a file under CACHE_DIR; undefined when none is recorded. */
export const recordedHash = (db: Db, file: string): string | undefined => hashesOf(db, [file]).get(file)

/** The integrity counters `/healthz` shows (`data.render.integrity`), since start. */
interface IntegrityHealth {
  checks: number
  checked: number
  damagedFound: number
  repaired: number
  lastCheckAt: string | null
  lastDamaged: string[]
}

/**
 * Finds damaged artifacts and hands them back to the render jobs: their manifest entries are
 * forgotten (so the pass writes them whatever it renders, `place` trusting no hash) and they are
 * marked due now, in one short write; the memory cache drops them. `settle` counts those the
 * following render put right.
 */
export function createIntegrity(deps: { db: Db; cacheDir: string; cache: ArtifactCache; now: () => number }) {
  const health: IntegrityHealth = { checks: 0, checked: 0, damagedFound: 0, repaired: 0, lastCheckAt: null, lastDamaged: [] }

  async function find(scope: VerifyScope, pace: { bytesPerSecond?: number; signal?: AbortSignal } = {}): Promise<string[]> {
    const entries = scope === 'all' ? manifest(deps.db) : hashesOf(deps.db, pendingPaths(deps.db))
    const { checked, damaged } = await findDamaged(deps.cacheDir, entries, pace.bytesPerSecond, pace.signal)
    if (pace.signal?.aborted) return []
    health.checks++
    health.checked += checked
    health.lastCheckAt = new Date(deps.now()).toISOString()
    if (!damaged.length) return damaged
    health.damagedFound += damaged.length
    health.lastDamaged = damaged.slice(0, 20)
    deps.db.transaction(
      (tx) => {
        forgetHashes(tx, damaged)
        markStale(tx, damaged, deps.now(), nextSeq())
      },
      { behavior: 'immediate' },
    )
    deps.cache.changed(damaged)
    return damaged
  }

  /** After the render: the damaged paths no job waits for any more were written again. */
  function settle(damaged: readonly string[]): number {
    const left = stillPending(deps.db, damaged)
    const repaired = damaged.filter((path) => !left.has(path)).length
    health.repaired += repaired
    return repaired
  }

  return { find, settle, health: (): IntegrityHealth => ({ ...health, lastDamaged: [...health.lastDamaged] }) }
}
