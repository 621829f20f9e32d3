import type { Queryable, Tx } from '../../db/client.ts'
import type { Change } from '../../shared/changes.ts'
import type { WriteOutcome } from './writer.ts'

/**
 * The engine knows no artifact kind: each kind (the API's reads and feeds, the site's pages,
 * feeds and sitemaps, Markdown twins, `llms.txt`, …) is a plug-in registered once, by the one
 * list `artifactKinds` in `src/kinds.ts` that the composition root calls, and the engine asks it
 * everything it needs to know about its artifacts. An artifact is the kind's own value; the
 * engine only hands it back.
 */
export interface Artifact {
  kind: string
}

/** What a written or removed artifact counts for in the publish response (spec §2.4). */
export type ArtifactEffect = 'sitemap' | 'rss' | null

/**
 * How soon a change's artifacts are due. `now`: its request waits for them; `background`: a
 * site-wide re-render (settings, a category or tag rename), in the lower lane whose slices yield
 * to `now` work, so a publish never waits behind it (its own request still waits for it, as for
 * `now`); `refresh`: due after the kind's `refreshMs` (counts that may lag, coalesced), unwaited.
 */
export type Pace = 'now' | 'background' | 'refresh'

/** What a rebuild learns from a kind inside its one marking transaction. */
export interface Survey<A extends Artifact> {
  /** A fingerprint of everything its artifacts may show besides what `moved` tracks (code, options, small tables). */
  inputs: string
  /** Its artifacts whose inputs changed since they were last recorded (asked only when the cache is trusted). */
  moved(): A[]
  /** Its artifacts readers meet first (the newest posts' pages, the lists and feeds they head): a long rebuild renders them first. */
  first(): A[]
}

export interface ArtifactKind<A extends Artifact = Artifact> {
  name: string
  /** CACHE_DIR top folders (or root files, `@`) its artifacts live under: what the disk scan walks. */
  tops: readonly string[]
  /** The artifact a CACHE_DIR-relative file holds, or null when it holds none of this kind's. */
  parse(file: string): A | null
  /** An artifact's file, CACHE_DIR-relative. */
  file(artifact: A): string
  /**
   * Other URLs (path and query) read from the artifact's file, which a CDN may hold beside the
   * file's own (a spelled-out default, `?language=en`): what a purge names too. No file is written for them.
   */
  spellings?(artifact: A): string[]
  /** The main file of the artifact a URL reads in any spelling (other query orders, defaults spelled out), or null. */
  canonical(url: URL): string | null
  /**
   * True when no URL serves its files as they are: only the servers read them (a redirect shard's
   * index), so no CDN holds them and no purge names them.
   */
  unserved?: boolean
  /** The media type its file is served with (by Caddy and by the API alike), or null when the file is not its own. */
  contentType(file: string): string | null
  /** Headers its file is served with beyond the content type and validators (CSP, an asset's own Cache-Control). */
  headers(file: string): Record<string, string>
  /**
   * A folder (CACHE_DIR-relative) of files that follow this main file on disk (a pass hook writes
   * them: the redirect files of a shard's index, redirects/files.ts), which a copy of CACHE_DIR
   * carries along (the S3 mirror, mirror/followers.ts); null or absent: none.
   */
  followers?(file: string): string | null
  effect(artifact: A): ArtifactEffect
  /**
   * The artifacts a change touches, inside the change's transaction (no filesystem I/O): a plan
   * has only to be wide enough, since every artifact is rendered from the database and written
   * only when its bytes differ. `planned`: what the kinds registered before it planned.
   */
  plan(tx: Tx, change: Change, planned: readonly Artifact[]): A[]
  /** How soon the artifacts it plans for a change are due (default `now`). */
  pace?(change: Change): Pace
  /** How long, in ms, artifacts planned at the pace `refresh` may lag (default 0). */
  refreshMs?: number
  /** Whether a change moves what its `inputs` fingerprint: the next rebuild then trusts no fingerprint. */
  widens(change: Change): boolean
  /** Every artifact the database calls for now: what a full rebuild renders. */
  every(db: Queryable): A[]
  /** A rebuild's look at the kind (it may record its subjects' states): `planned` is what the kinds before it surveyed. */
  survey(tx: Tx, planned: () => readonly Artifact[]): Survey<A>
  /** What its files are rendered with besides the database (options, documents, asset names): a new stamp at start rebuilds the cache. */
  stamp(): unknown
  /** The bytes of these artifacts from one read snapshot (null: the artifact must not exist). */
  render(db: Queryable, artifacts: readonly A[]): (string | null)[]
}

/**
 * One artifact a pass changed on disk: its main file (CACHE_DIR-relative), what it holds, the
 * other URLs read from that file (`spellings`: `/api/v1/blog/posts/x?language=en`), its media type, what happened.
 */
export interface ArtifactChange {
  path: string
  target: Artifact | null
  spellings: readonly string[]
  contentType: string
  outcome: Exclude<WriteOutcome, 'unchanged'>
  /** Whether a URL serves the file as it is (its kind's `unserved` says not): what a purge names. */
  served: boolean
}
