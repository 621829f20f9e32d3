import type { Queryable, Tx } from '../../db/client.ts'
import type { Change } from '../../shared/changes.ts'
import { createHash } from 'node:crypto'
import { everyShard, shardsOf, type RedirectKind } from '../import/redirects.ts'
import type { ArtifactKind } from '../publishing/kinds.ts'
import { indexFile, movedFolder, parseIndex, REDIRECTS_TOP, type MovedShard } from './layout.ts'
import { shardNames } from './shards.ts'

const TEXT = 'text/plain; charset=utf-8'

/** The thing a change is about, when old URLs may point at it. */
function thingOf(change: Change): { kind: RedirectKind; targetId: number } | null {
  switch (change.kind) {
    case 'post':
      return { kind: 'post', targetId: change.after.id }
    case 'page': {
      const page = change.after ?? change.before
      return page && { kind: 'page', targetId: page.id }
    }
    case 'category':
    case 'tag':
    case 'author':
      return { kind: change.kind, targetId: change.id }
    default:
      return null
  }
}

/**
 * Old URLs of imported sites as artifacts of the publishing pipeline (layout.ts): one artifact per
 * shard, its index a digest of the shard's redirect files, which follow it on disk (files.ts). A
 * redirect follows its thing: a post, page, category, tag or author change re-renders the shards
 * of its old URLs, from the database, so a target that moved or went private renames or drops
 * its file. The import renders them all with its one rebuild at the end (`every`).
 */
export function redirectArtifacts(): ArtifactKind<MovedShard> {
  const shards = (names: readonly string[]): MovedShard[] => names.map((shard) => ({ kind: 'redirect', shard }))
  return {
    name: 'redirects',
    tops: [REDIRECTS_TOP],
    parse: parseIndex,
    file: (artifact) => indexFile(artifact.shard),
    // Never a page: no spelling of a URL reads these files as they are, so no purge names them.
    canonical: () => null,
    unserved: true,
    contentType: (file) => (file.startsWith(`${REDIRECTS_TOP}/`) ? TEXT : null),
    headers: () => ({}),
    // The shard's redirect files, which follow its index (files.ts): a mirror of CACHE_DIR carries them.
    followers: (file) => {
      const index = parseIndex(file)
      return index && movedFolder(index.shard)
    },
    effect: () => null,
    plan(tx: Tx, change: Change) {
      const thing = thingOf(change)
      return thing ? shards(shardsOf(tx, thing)) : []
    },
    widens: () => false,
    every: (db) => shards(everyShard(db)),
    // An import writes old URLs and renames their targets past the change feed, and an index has
    // no fingerprint cheaper than its render: a rebuild renders every shard again (about one per
    // ten posts), and writes, and syncs, only those whose names changed.
    survey: (tx) => ({ inputs: '', moved: () => shards(everyShard(tx)), first: () => [] }),
    // Shards since the per-URL layout: a cache of the old layout is rebuilt at start.
    stamp: () => `${REDIRECTS_TOP}:shards`,
    // The batch's shards resolved in one query. An index is the count and digest of its files'
    // names, never the names (they are the files themselves): a few bytes, so no compressed copies.
    render: (db: Queryable, artifacts) => {
      const names = shardNames(
        db,
        artifacts.map((a) => a.shard),
      )
      return artifacts.map(({ shard }) => {
        const list = names.get(shard)
        return list ? `${list.length} ${createHash('sha256').update(list.join('\n')).digest('base64url')}\n` : null
      })
    },
  }
}
