import type { Queryable, Tx } from '../../db/client.ts'
import type { Change } from '../../shared/changes.ts'
import { recentMemo } from '../../shared/memo.ts'
import type { Artifact, ArtifactChange, ArtifactEffect, ArtifactKind, Pace } from './kinds.ts'

/**
 * The registered artifact kinds as one (Eleventy's template map, in spirit): every question the
 * engine asks goes to the kind that owns the artifact or file, and two kinds claiming the same
 * file is refused at registration. Artifacts enter the engine only through a kind (parsed,
 * planned, listed, surveyed), which is how each is remembered with its owner.
 */
export interface Catalogue {
  tops: readonly string[]
  parse(file: string): Artifact | null
  file(artifact: Artifact): string
  /** Other URLs read from the artifact's file (the kinds' `spellings`; none for most). */
  spellings(artifact: Artifact): string[]
  /** A file's change as a pass's hooks are told of it: its spellings and media type from its kind. */
  change(path: string, target: Artifact | null, outcome: ArtifactChange['outcome']): ArtifactChange
  canonical(url: URL): string | null
  contentType(file: string): string
  headers(file: string): Record<string, string>
  /** The folder of files that follow a main file on disk (the kinds' `followers`), or null. */
  followers(file: string): string | null
  effect(artifact: Artifact): ArtifactEffect
  /** Every kind's plan for a change, in registration order (each sees what the kinds before it planned), by pace. */
  plan(tx: Tx, change: Change): Planned[]
  /** The longest delay of the pace `refresh` among the kinds: a due time further ahead comes from a clock that stepped back. */
  longestRefreshMs: number
  widens(change: Change): boolean
  every(db: Queryable): Artifact[]
  survey(tx: Tx): { inputs: string; moved(): Artifact[]; first(): Artifact[] }
  /** The bytes of these artifacts from one snapshot, each kind rendering its own as one batch. */
  render(db: Queryable, artifacts: readonly Artifact[]): (string | null)[]
  /** Distinct main files of these artifacts; artifacts that can have no file (an odd slug) drop out. */
  pathsOf(artifacts: readonly Artifact[]): string[]
}

/** What one kind planned for a change: its artifacts, how soon they are due, and after how long (`refresh`). */
export interface Planned {
  artifacts: Artifact[]
  pace: Pace
  afterMs: number
}

const FALLBACK_TYPE = 'application/octet-stream'

export function catalogue(kinds: readonly ArtifactKind[]): Catalogue {
  const names = new Set(kinds.map((k) => k.name))
  if (names.size !== kinds.length) throw new Error('two artifact kinds share a name')
  const owner = new WeakMap<Artifact, ArtifactKind>()
  const own = <A extends Artifact>(kind: ArtifactKind, artifacts: A[]): A[] => {
    for (const a of artifacts) owner.set(a, kind)
    return artifacts
  }
  const kindOf = (artifact: Artifact): ArtifactKind => {
    const kind = owner.get(artifact)
    if (!kind) throw new Error(`an artifact no registered kind made: ${artifact.kind}`)
    return kind
  }

  function parse(file: string): Artifact | null {
    let found: Artifact | null = null
    for (const kind of kinds) {
      const artifact = kind.parse(file)
      if (!artifact) continue
      // Eleventy refuses two templates writing one output; so is a file two kinds claim.
      if (found) throw new Error(`${file} is claimed by two artifact kinds`)
      found = own(kind, [artifact])[0]!
    }
    return found
  }

  const file = (artifact: Artifact) => kindOf(artifact).file(artifact)
  const spellings = (artifact: Artifact) => kindOf(artifact).spellings?.(artifact) ?? []
  /** The first kind's answer that is not null (nor absent, for an optional question), or null. */
  const firstAnswer = <T>(ask: (kind: ArtifactKind) => T | null | undefined): T | null => {
    for (const kind of kinds) {
      const answer = ask(kind)
      if (answer !== null && answer !== undefined) return answer
    }
    return null
  }
  const contentType = (file: string) => firstAnswer((kind) => kind.contentType(file)) ?? FALLBACK_TYPE
  // Whether a path names an artifact, for the paths planned most recently: every publish plans the
  // same lists, feeds and sitemaps, and parsing a path back costs microseconds.
  const artifactPaths = recentMemo<string, boolean>(4096)

  return {
    tops: [...new Set(kinds.flatMap((k) => k.tops))],
    parse,
    file,
    spellings,
    change: (path, target, outcome) => ({
      path,
      target,
      spellings: target ? spellings(target) : [],
      contentType: contentType(path),
      outcome,
      served: !(target && kindOf(target).unserved),
    }),
    canonical: (url) => firstAnswer((kind) => kind.canonical(url)),
    contentType,
    headers: (file) => Object.assign({}, ...kinds.map((k) => k.headers(file))),
    followers: (file) => firstAnswer((kind) => kind.followers?.(file)),
    effect: (artifact) => kindOf(artifact).effect(artifact),
    plan(tx, change) {
      const planned: Artifact[] = []
      return kinds.map((kind) => {
        const artifacts = own(kind, kind.plan(tx, change, planned))
        planned.push(...artifacts)
        const pace = kind.pace?.(change) ?? 'now'
        return { artifacts, pace, afterMs: pace === 'refresh' ? (kind.refreshMs ?? 0) : 0 }
      })
    },
    longestRefreshMs: Math.max(0, ...kinds.map((k) => k.refreshMs ?? 0)),
    widens: (change) => kinds.some((k) => k.widens(change)),
    every: (db) => kinds.flatMap((kind) => own(kind, kind.every(db))),
    survey(tx) {
      const surveys: { kind: ArtifactKind; inputs: string; moved(): Artifact[]; first(): Artifact[] }[] = []
      let moved: Artifact[] | null = null
      const movedSoFar = () => moved ?? []
      for (const kind of kinds) surveys.push({ kind, ...kind.survey(tx, movedSoFar) })
      return {
        inputs: surveys.map((s) => s.inputs).join(' '),
        moved() {
          moved = []
          for (const s of surveys) moved.push(...own(s.kind, s.moved()))
          return moved
        },
        first: () => surveys.flatMap((s) => own(s.kind, s.first())),
      }
    },
    render(db, artifacts) {
      const out: (string | null)[] = new Array(artifacts.length).fill(null)
      for (const kind of kinds) {
        const mine = artifacts.flatMap((a, i) => (owner.get(a) === kind ? [i] : []))
        if (!mine.length) continue
        const bytes = kind.render(
          db,
          mine.map((i) => artifacts[i]!),
        )
        mine.forEach((i, j) => (out[i] = bytes[j]!))
      }
      return out
    },
    pathsOf: (artifacts) => [...new Set(artifacts.map(file))].filter((path) => artifactPaths(path, () => parse(path) !== null)),
  }
}
