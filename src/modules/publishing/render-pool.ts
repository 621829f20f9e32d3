import { Database } from 'bun:sqlite'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import type { Db } from '../../db/client.ts'
import * as schema from '../../db/schema/index.ts'
import type { Logger } from '../../shared/log.ts'
import { backgroundWhenAsked } from '../../shared/thread-priority.ts'
import { createWorkerPool, ownedBuffers } from '../../shared/worker-pool.ts'
import { catalogue, type Catalogue } from './catalogue.ts'
import type { ArtifactKind } from './kinds.ts'
import { bytesOf, renderSlice, type SliceResult } from './render-slice.ts'
import { heapBound } from '../../shared/heap-bound.ts'

/**
 * Where a pass's slices are rendered: on the render loop's own thread (RENDER_WORKERS=0, as
 * before), or on render threads, each with its own read-only connection to the same SQLite file
 * and the same artifact kinds (made from the same plain options by `artifactKinds`, src/kinds.ts).
 * A thread's snapshot is taken after the pass read its jobs, so it includes every change those
 * jobs were marked for (a later one at most, whose job stays due and is rendered again).
 */
export interface SliceRenderer {
  /** Slices a pass keeps in flight: one per thread plus the one being written, or 1 on the loop's thread. */
  depth: number
  /** Whether slices render off the render loop's thread (their copies then go off it too). */
  threaded: boolean
  render(paths: readonly string[]): Promise<SliceResult[]>
  close(): Promise<void>
}

/** Renders on the caller's thread. */
export function renderHere(db: Db, kinds: Catalogue): SliceRenderer {
  return { depth: 1, threaded: false, render: async (paths) => renderSlice(db, kinds, paths), close: async () => {} }
}

interface RenderRequest {
  dbFile: string
  /** The kinds' options as JSON: a thread makes its kinds again when they differ (the OpenAPI document is set after start). */
  options: string
  paths: readonly string[]
  /** Whether the thread yields to the thread that answers reads (thread-priority.ts): the server's do. */
  background: boolean
}
type RenderReply = { id: number; results: ({ content: Uint8Array | null } | { error: string })[] } | { id: number; error: string }

/** A slice of 100 includes the largest sitemap (~1 MB at 10,000 posts, ~0.1 s): a thread silent this long is stuck. */
const STALL_MS = 60_000

/**
 * `size` render threads (`entry` calls `answerRenders`), started at the first slice and ended
 * after a minute without one (an idle server holds none: docs/memory.md), never holding the process alive. A slice whose thread died or stalled comes back as failed
 * renders: its jobs are retried with backoff like any failed render, and the thread is replaced.
 */
export function renderThreads(options: {
  entry: URL
  size: number
  dbFile: string
  kindOptions: () => unknown
  log: Logger
  /** Below the thread that answers reads (the server); a CLI command's threads run at the process's priority. */
  background?: boolean
}): SliceRenderer {
  const pool = createWorkerPool<RenderRequest, RenderReply>({
    entry: options.entry,
    size: options.size,
    stallMs: STALL_MS,
    lazy: true,
    refuseAfterStop: true,
    ref: false,
    busy: () => new Error('the render threads are closed'),
    failed: (reason) => new Error(`the render thread ${reason === 'timeout' ? 'stalled' : 'exited'}`),
    onReplaced: (reason, detail, unanswered) => options.log.error('render thread replaced', { reason, detail, unanswered }),
  })
  // The options as JSON, made again only when one of their values changed (the OpenAPI document alone is ~230 KB).
  let sent: { values: unknown[]; text: string } | null = null
  const optionsText = (): string => {
    const current = options.kindOptions() as object
    const values = Object.values(current)
    if (!sent || values.length !== sent.values.length || values.some((v, i) => v !== sent!.values[i]))
      sent = { values, text: JSON.stringify(current) }
    return sent.text
  }
  return {
    depth: options.size + 1,
    threaded: true,
    async render(paths) {
      const failedAll = (error: unknown) => paths.map(() => ({ error }))
      try {
        const reply = await pool.run({ dbFile: options.dbFile, options: optionsText(), paths, background: options.background ?? true })
        return 'results' in reply ? reply.results : failedAll(reply.error)
      } catch (error) {
        return failedAll(error)
      }
    },
    close: () => pool.close(),
  }
}

/** A render thread's read-only connection: it never writes, and waits out a writer's checkpoint. */
function openReader(file: string): Db {
  const sqlite = new Database(file, { readonly: true, strict: true })
  sqlite.exec('PRAGMA busy_timeout = 5000')
  return drizzle(sqlite, { schema }) as Db
}

/** Slices this thread was asked for while the test hook's file existed. */
let seenByHook = 0
/**
 * A test hook (test/publishing/engine.test.ts, rebuild.test.ts): while the file
 * FOLIO_TEST_RENDER_HOLD names exists, a render thread holds each slice before rendering it (past
 * the number of slices the file may hold, let through first), and says so by creating that name
 * with `.held` added; so a test knows, without timing, that a render is under way on a thread, or
 * that a rebuild is half-way. Unset (always, outside tests), it is one comparison.
 */
function holdForTest(): void {
  const hold = process.env.FOLIO_TEST_RENDER_HOLD
  if (!hold || !existsSync(hold)) return
  if (seenByHook++ < Number(readFileSync(hold, 'utf8') || 0)) return
  writeFileSync(`${hold}.held`, '')
  const pause = new Int32Array(new SharedArrayBuffer(4))
  while (existsSync(hold)) Atomics.wait(pause, 0, 0, 10)
}

/** The body of a render thread: answers each slice with its results, rendered from a snapshot of its own. */
export function answerRenders(makeKinds: (options: never) => readonly ArtifactKind[]): void {
  const self = globalThis as unknown as Worker
  // Below the thread that answers reads (in the server): a read arriving mid-render preempts the render.
  const priority = backgroundWhenAsked()
  let db: Db | null = null
  let dbFile = ''
  let optionsText = ''
  let kinds: Catalogue | null = null
  // This thread's own heap: its slices' garbage collected past a bound (shared/heap-bound.ts).
  const heap = heapBound()
  self.onmessage = ({ data }: MessageEvent<RenderRequest & { id: number }>) => {
    priority(data.background)
    try {
      if (data.dbFile !== dbFile || !db) {
        db?.$client.close()
        db = openReader(data.dbFile)
        dbFile = data.dbFile
      }
      if (data.options !== optionsText || !kinds) {
        kinds = catalogue(makeKinds(JSON.parse(data.options) as never))
        optionsText = data.options
      }
      holdForTest()
      // Each render's bytes made here and handed over: the render loop gets them without a copy
      // of the text (a structured clone copies a string twice) and without encoding it again.
      const results = renderSlice(db, kinds, data.paths).map((r) =>
        'error' in r ? { error: String(r.error) } : { content: r.content === null ? null : bytesOf(r.content) },
      )
      self.postMessage({ id: data.id, results } satisfies RenderReply, {
        transfer: results.flatMap((r) => ('content' in r ? ownedBuffers(r.content) : [])),
      })
      heap.settle()
    } catch (error) {
      self.postMessage({ id: data.id, error: String(error) } satisfies RenderReply)
    }
  }
}
