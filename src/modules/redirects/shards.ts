import type { Queryable } from '../../db/client.ts'
import { resolveRedirects } from '../import/redirects.ts'
import { movedName } from './layout.ts'

/**
 * The file names each of these shards holds now (layout.ts), in order, resolved in one query: a
 * shard none of whose old URLs has a public target holds none (absent from the map).
 */
export function shardNames(db: Queryable, shards: readonly string[]): Map<string, string[]> {
  const names = new Map<string, string[]>()
  if (!shards.length) return names
  for (const { from, shard, to } of resolveRedirects(db, { shards })) {
    const name = to && shard && movedName(from, to)
    if (!name) continue
    const list = names.get(shard!) ?? []
    list.push(name)
    names.set(shard!, list)
  }
  for (const list of names.values()) list.sort()
  return names
}
