import { resolve } from 'node:path'
import { options, UsageError } from './cli-args.ts'
import type { Config } from './config.ts'
import { DataDirInUse, lockDataDir } from './operations/lock.ts'
import {
  CONTROL_HEADER,
  CONTROL_NOTE,
  MIRROR_NEEDED,
  readControlNote,
  REBUILD_PATH,
  type RebuildRequest,
  type RebuildState,
} from './operations/rebuild-control.ts'
import type { RebuildStats } from './modules/publishing/stats.ts'
import { processAlive } from './modules/publishing/writer.ts'

/** How often the CLI reads the server's `/healthz` while it waits, and prints a progress line. */
const POLL_MS = 200
const PROGRESS_MS = 2_000

/** `rebuild`'s flags (docs/operations.md), read the same way whoever does the work. */
export function rebuildRequest(args: string[]): RebuildRequest {
  const { values } = options(args, { target: { type: 'string' }, force: { type: 'boolean' }, verify: { type: 'boolean' } })
  if (values.target !== undefined && values.target !== 's3') throw new UsageError(`--target must be s3, got "${values.target}"`)
  return { force: values.force ?? false, verify: values.verify ?? false, target: values.target ?? null }
}

/**
 * The rebuild's summary on stdout: rendered (then written, removed or unchanged) or skipped (its
 * inputs had not changed); with --verify (or after a killed pass), the files found not to hold
 * their recorded bytes.
 */
export function printRebuild(stats: RebuildStats, verify: boolean, ms: number): void {
  if (verify || stats.damaged) console.log(`verified artifacts: ${stats.damaged} damaged, ${stats.repaired} repaired`)
  const unchanged = stats.rendered - stats.written - stats.removed
  console.log(
    `rebuilt artifacts: ${stats.rendered} rendered, ${stats.written} written, ${stats.removed} removed, ${unchanged} unchanged, ` +
      `${stats.skipped} skipped in ${Math.round(ms)} ms`,
  )
}

export interface MirrorSummary {
  put: number
  deleted: number
  unchanged: number
}

export function printMirror(summary: MirrorSummary, location: string, ms: number): void {
  console.log(
    `mirrored to ${location}: ${summary.put} put, ${summary.deleted} deleted, ${summary.unchanged} unchanged in ${Math.round(ms)} ms`,
  )
}

/** Whether a server holds DATA_DIR now (its lock: dropped by the operating system when it ends, even by kill -9). */
function serverRuns(dataDir: string): boolean {
  try {
    lockDataDir(dataDir).release()
    return false
  } catch (error) {
    if (error instanceof DataDirInUse) return true
    throw error
  }
}

interface Health {
  data?: { render?: { reRender?: { pending: number; rendered: number } }; rebuild?: RebuildState }
}

/**
 * `cli rebuild` when a server runs on DATA_DIR: the server does it (rebuild-control.ts) and this
 * process only waits, printing progress on stderr and the same summary on stdout as a rebuild of
 * its own; false when no server runs (the caller rebuilds itself). A server that holds DATA_DIR
 * but left no note yet (still starting) is waited for briefly.
 */
export async function rebuiltByServer(config: Config, args: string[]): Promise<boolean> {
  const request = rebuildRequest(args)
  if (request.target === 's3' && !config.publishTargets.includes('s3')) throw new UsageError(MIRROR_NEEDED)
  if (!serverRuns(config.dataDir)) return false
  const note = await noteOfRunningServer(config.dataDir)
  // A server rendering into another CACHE_DIR leaves this one to this process.
  if (!note || note.cacheDir !== resolve(config.cacheDir)) return false
  const started = performance.now()
  const asked = await fetch(`${note.url}${REBUILD_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CONTROL_HEADER]: note.secret },
    body: JSON.stringify(request),
  }).catch((error) => {
    throw new Error(`the server running on DATA_DIR (pid ${note.pid}) does not answer at ${note.url}: ${(error as Error).message}`)
  })
  const answer = (await asked.json().catch(() => null)) as { code?: string; message?: string; data?: { id?: number } } | null
  if (asked.status !== 202 || typeof answer?.data?.id !== 'number')
    throw new Error(`the server running on DATA_DIR refused the rebuild: ${answer?.message ?? `HTTP ${asked.status}`}`)
  const id = answer.data.id
  console.error(`rebuild: handed to the server running on DATA_DIR (pid ${note.pid}, ${note.url})`)
  let printed = performance.now()
  for (;;) {
    await Bun.sleep(POLL_MS)
    const health = await fetch(`${note.url}/healthz`)
      .then((response) => response.json() as Promise<Health>)
      .catch(() => null)
    if (!health) throw new Error(`the server (pid ${note.pid}) stopped answering during the rebuild; run the rebuild again`)
    const state = health.data?.rebuild
    if (state && 'id' in state && state.id === id && state.state !== 'running') {
      if (state.state === 'failed') throw new Error(`rebuild failed in the server: ${state.error}`)
      const result = state.result as { stats: RebuildStats; mirrored?: MirrorSummary & { location: string } }
      const ms = performance.now() - started
      printRebuild(result.stats, request.verify, ms)
      if (result.mirrored) printMirror(result.mirrored, result.mirrored.location, ms)
      return true
    }
    if (performance.now() - printed >= PROGRESS_MS) {
      printed = performance.now()
      const left = health.data?.render?.reRender
      const progress = left ? `, ${left.rendered} rendered, ${left.pending} left` : ''
      console.error(`rebuild: working (${Math.round((printed - started) / 1000)} s${progress})`)
    }
  }
}

/**
 * The note of the server holding DATA_DIR, waiting up to ten seconds for one still starting to
 * write it (a note left by a killed one names a pid that is gone); null once no server holds it.
 */
async function noteOfRunningServer(dataDir: string) {
  for (let tries = 0; ; tries++) {
    const note = readControlNote(dataDir)
    if (note && processAlive(note.pid)) return note
    if (!serverRuns(dataDir)) return null
    if (tries >= 100)
      throw new Error(`a server holds DATA_DIR but has not said where it answers (DATA_DIR/${CONTROL_NOTE}); try again once it has started`)
    await Bun.sleep(100)
  }
}
