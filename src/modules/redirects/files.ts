import { closeSync, mkdirSync, openSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Queryable } from '../../db/client.ts'
import { chunks } from '../publishing/jobs.ts'
import type { ArtifactChange } from '../publishing/kinds.ts'
import { SLICE } from '../publishing/pass.ts'
import { movedFolder, MOVED_TOP, parseIndex } from './layout.ts'
import { shardNames } from './shards.ts'

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? ''

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return []
    throw error
  }
}

/** Creates an empty file (one made meanwhile by another process is as good): cheaper than writing one. */
function create(file: string): void {
  try {
    closeSync(openSync(file, 'wx'))
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error
  }
}

/** Removes `folder` and its parents up to `top` while they are empty. */
function pruneUp(top: string, folder: string): void {
  for (let at = folder; at.startsWith(`${top}/`); at = dirname(at))
    try {
      rmdirSync(at)
    } catch (error) {
      if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(codeOf(error))) return
      throw error
    }
}

/**
 * Brings one shard's redirect files (`_moved/{shard}/`) to `names`: names no longer wanted go, new
 * ones are created empty (a name says everything, so no temp file and rename: a reader finds the
 * name or not). A shard left without names loses its folder.
 */
export function syncShard(cacheDir: string, shard: string, names: readonly string[]): void {
  const folder = join(cacheDir, movedFolder(shard))
  const wanted = new Set(names)
  const present = namesIn(folder)
  for (const name of present) if (!wanted.has(name)) unlinkSync(join(folder, name))
  if (!wanted.size) return pruneUp(join(cacheDir, MOVED_TOP), folder)
  const have = new Set(present)
  let made = present.length > 0
  for (const name of wanted) {
    if (have.has(name)) continue
    if (!made) mkdirSync(folder, { recursive: true })
    made = true
    create(join(folder, name))
  }
}

/**
 * A pass's hook (`onPassPlaced`, before its closing write, outside any transaction): the shards
 * whose index it wrote or removed get their files, as the database has them now (a change since
 * has its own job, whose pass syncs again). A pass killed before its closing write leaves the
 * index's job pending and its hash unrecorded, so the index is written, and its shard synced, again.
 */
export const redirectFiles =
  (cacheDir: string, db: Queryable) =>
  (changes: readonly ArtifactChange[]): void => {
    const shards = changes.flatMap((change) => parseIndex(change.path)?.shard ?? [])
    // A render slice's worth of shards at a time: a rebuild's pass may place a thousand of them.
    for (const part of chunks(shards, SLICE)) {
      const names = shardNames(db, part)
      for (const shard of part) syncShard(cacheDir, shard, names.get(shard) ?? [])
    }
  }
