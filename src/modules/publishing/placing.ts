import type { Logger } from '../../shared/log.ts'
import { backgroundThread } from '../../shared/worker-pool.ts'
import { removeArtifact, writeArtifact, type WriteOutcome } from './writer.ts'

/** One main file's change as the placing thread (placing-thread.ts) is asked for it (`bytes` null: its removal), and its answer. */
export interface PlaceRequest {
  id: number
  root: string
  path: string
  bytes: Uint8Array | null
  nowMs: number
  /** Nothing is at the path (a rebuild's scan says so): the write looks for no old file (writer.ts). */
  vacant: boolean
}
/** A main file placed: what happened, and for a write the file's mtime in seconds (its copies carry it). */
export interface PlacedFile {
  outcome: WriteOutcome
  seconds?: number
}
export type PlaceReply = ({ id: number } & PlacedFile) | { id: number; error: string }

/** Writes (temp file and rename, writer.ts) or removes one main file where it runs; a failure is answered, never thrown. */
export function placeRequested({ id, root, path, bytes, nowMs, vacant }: PlaceRequest): PlaceReply {
  try {
    if (bytes === null) return { id, outcome: removeArtifact(root, path) }
    return { id, outcome: 'written', seconds: writeArtifact(root, path, bytes, nowMs, vacant) }
  } catch (error) {
    return { id, error: String(error) }
  }
}

/** The reply's file, or its failure thrown. */
function placedOf(reply: PlaceReply): PlacedFile {
  if ('error' in reply) throw new Error(reply.error)
  return { outcome: reply.outcome, seconds: reply.seconds }
}

/**
 * Where a pass's main files are written and removed (destinations.ts): the caller's thread, or the
 * placing thread. The caller waits for each, so every step keeps its order (the old copies go, the
 * main file is renamed in, the read cache is told, the copies follow); only the thread blocked
 * while the file system works is another.
 */
export interface Placer {
  /** `bytes` null: the file is removed ('removed' or 'absent'); otherwise 'written'. Rejects with the failure. */
  place(path: string, bytes: Uint8Array | null, nowMs: number, vacant: boolean): Promise<PlacedFile>
  close(): Promise<void>
}

/** On the caller's thread: a CLI command's passes, and the server's without render threads. */
export function placeHere(root: string): Placer {
  return {
    place: async (path, bytes, nowMs, vacant) => placedOf(placeRequested({ id: 0, root, path, bytes, nowMs, vacant })),
    close: async () => {},
  }
}

const ENTRY = new URL('./placing-thread.ts', import.meta.url)
/** A rename waits at most for the file system's journal (measured up to ~150 ms on a busy disk): silent this long, the thread is stuck. */
const STALL_MS = 10_000

/**
 * The placing thread, for the server with render threads (docs/publishing.md, "Reads never wait
 * for renders"): a rename over an existing file on ext4 starts the new file's write-back and may
 * wait for the journal, 0.1–0.3 ms each on an idle disk and up to ~150 ms on a busy one
 * (measured under bench/soak.bench.ts), which blocked every read on the serving thread. One
 * thread at the process's priority (it waits on the file system more than it computes, and the
 * pass awaits each answer: at nice 10 on a loaded box each answer waited for a turn), started at
 * the first file, keeping no process alive while idle. A thread that dies or stalls is ended and its unanswered files fail once it has stopped (nothing it had
 * under way lands after that): their jobs are retried like any failed render.
 */
export function placingThread(root: string, log: Logger, { entry = ENTRY, stallMs = STALL_MS } = {}): Placer {
  const thread = backgroundThread<Omit<PlaceRequest, 'id'>, PlaceReply>({ name: 'placing thread', entry, stallMs, log })
  return {
    place: async (path, bytes, nowMs, vacant) => placedOf(await thread.run({ root, path, bytes, nowMs, vacant })),
    close: () => thread.close(),
  }
}
