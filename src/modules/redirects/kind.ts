import type { Queryable, Tx } from '../../db/client.ts'
import type { Change } from '../../shared/changes.ts'
import { resolveRedirects } from '../import/redirects.ts'
import { writtenPathsUnder } from '../publishing/jobs.ts'
import type { ArtifactKind } from '../publishing/kinds.ts'
import { filesPrefix, movedFile, parseMoved, REDIRECTS_TOP, type Moved } from './layout.ts'

const TEXT = 'text/plain; charset=utf-8'

const moved = (from: string, to: string | null): Moved[] => (to && movedFile(from, to) ? [{ kind: 'redirect', from, to }] : [])

/**
 * Old URLs of imported sites as artifacts of the publishing pipeline (layout.ts): one file per
 * old URL, named after where it moved. A redirect follows its thing: a post, category, tag or
 * author change plans its redirects where they point now, and the files written for them before
 * (from the manifest, never the disk), which render to nothing when the target moved or went
 * private. The import itself renders them with its one rebuild at the end (`every`).
 */
export function redirectArtifacts(): ArtifactKind<Moved> {
  function plan(tx: Tx, change: Change): Moved[] {
    const thing =
      change.kind === 'post'
        ? { kind: 'post' as const, id: change.after.id }
        : change.kind === 'category' || change.kind === 'tag' || change.kind === 'author'
          ? { kind: change.kind, id: change.id }
          : null
    if (!thing) return []
    return resolveRedirects(tx, { kind: thing.kind, targetId: thing.id }).flatMap(({ from, to }) => {
      const prefix = filesPrefix(from)
      const written = prefix ? writtenPathsUnder(tx, prefix).flatMap((file) => parseMoved(file) ?? []) : []
      return [...moved(from, to), ...written]
    })
  }

  return {
    name: 'redirects',
    tops: [REDIRECTS_TOP],
    parse: parseMoved,
    file: (artifact) => movedFile(artifact.from, artifact.to)!,
    // Never a page: no spelling of a URL reads these files as they are.
    canonical: () => null,
    contentType: (file) => (file.startsWith(`${REDIRECTS_TOP}/`) ? TEXT : null),
    headers: () => ({}),
    effect: () => null,
    plan,
    widens: () => false,
    every: (db) => resolveRedirects(db).flatMap(({ from, to }) => moved(from, to)),
    // An artifact names its target, so what moved shows as a new file and a stray one: nothing to fingerprint.
    survey: () => ({ inputs: '', moved: () => [], first: () => [] }),
    stamp: () => REDIRECTS_TOP,
    // The batch's old URLs resolved in one query (an import renders some five per post).
    render: (db: Queryable, artifacts) => {
      const now = new Map(resolveRedirects(db, { from: artifacts.map((a) => a.from) }).map((r) => [r.from, r.to]))
      return artifacts.map(({ from, to }) => (now.get(from) === to ? `${to}\n` : null))
    },
  }
}
