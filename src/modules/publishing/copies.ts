import type { Logger } from '../../shared/log.ts'
import { backgroundThread, ownedBuffers } from '../../shared/worker-pool.ts'
import { writeCopies } from './writer.ts'

/** One artifact's copies as the copies thread (copies-thread.ts) is asked for them, and its answer. */
export interface CopiesRequest {
  id: number
  root: string
  path: string
  bytes: Uint8Array
  /** The main file's mtime when its writer has just put these bytes there (writer.ts `writeCopies`). */
  seconds?: number
  /** Whether the thread yields to the thread that answers reads (thread-priority.ts): the server's does. */
  background: boolean
}
export interface CopiesReply {
  id: number
  /** False: nothing was written (the main file holds other bytes, or `error`). */
  written: boolean
  error?: string
}

/** Writes the copies asked for where it runs (`writeCopies`); a failure (a full disk) is answered, never thrown. */
export function writeRequested({ id, root, path, bytes, seconds }: Omit<CopiesRequest, 'background'>): CopiesReply {
  try {
    return { id, written: writeCopies(root, path, bytes, seconds) }
  } catch (error) {
    return { id, written: false, error: String(error) }
  }
}

/**
 * Writes artifacts' precompressed copies, on the copies thread (`offThread`: a pass then renders
 * its next slice while the copies of the last one are compressed) or at once on the caller's.
 * Off the thread, `bytes` is handed over when it owns its buffer: the caller's view is emptied.
 * `copy` resolves true once the copies agree with the main file on disk, false when they were not
 * written; it never rejects. `seconds`: the main file's mtime, from the writer that has just put
 * these bytes there (the file is then not read back).
 */
export interface Copier {
  copy(path: string, bytes: Uint8Array, offThread: boolean, seconds?: number): Promise<boolean>
  /** Ends the thread; a copy asked of it afterwards is not written. */
  close(): Promise<void>
}

const ENTRY = new URL('./copies-thread.ts', import.meta.url)
/** A thread that answers nothing for this long is stuck (a 1.4 MB sitemap's copies take ~25 ms): it is replaced. */
const STALL_MS = 10_000

/**
 * One Worker thread: the copies of an artifact cost about what its render costs the main thread,
 * so one keeps pace with the one render loop, and leaves a 2-core machine's other core to it. Made
 * at the first copy handed to it (a process that runs no large pass starts none). A thread that dies or
 * stalls is ended, its unanswered copies answered false once it has stopped (a write under way
 * finishes first, so none lands after its pass has moved on; bounded by `stallMs`), and the next
 * copy starts a fresh one. Idle, the thread keeps no process alive; the stall timer, armed while
 * copies are outstanding, does. `background`: the thread runs below the thread that answers reads
 * (the server's); a CLI command's runs at the process's own priority.
 */
export function createCopier(root: string, log: Logger, { entry = ENTRY, stallMs = STALL_MS, background = true } = {}): Copier {
  // The bytes are handed over, not copied: `copy` is their last use (destinations.ts), and a copy
  // not written is rendered again by its job, never retried from these bytes.
  const thread = backgroundThread<Omit<CopiesRequest, 'id'>, CopiesReply>({
    name: 'copies thread',
    entry,
    stallMs,
    log,
    transfer: (request) => ownedBuffers(request.bytes),
  })

  function answered(reply: CopiesReply): boolean {
    if (reply.error) log.warn('artifact copies not written', { error: reply.error })
    return reply.written
  }

  return {
    copy(path, bytes, offThread, seconds) {
      if (!offThread) return Promise.resolve(answered(writeRequested({ id: 0, root, path, bytes, seconds })))
      return thread.run({ root, path, bytes, seconds, background }).then(answered, () => false)
    },
    close: () => thread.close(),
  }
}
