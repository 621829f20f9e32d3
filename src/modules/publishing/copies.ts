import type { Logger } from '../../shared/log.ts'
import { backgroundThread } from '../../shared/worker-pool.ts'
import { writeCopies } from './writer.ts'

/** One artifact's copies as the copies thread (copies-thread.ts) is asked for them, and its answer. */
export interface CopiesRequest {
  id: number
  root: string
  path: string
  bytes: Uint8Array
}
export interface CopiesReply {
  id: number
  /** False: nothing was written (the main file holds other bytes, or `error`). */
  written: boolean
  error?: string
}

/** Writes the copies asked for where it runs (`writeCopies`); a failure (a full disk) is answered, never thrown. */
export function writeRequested({ id, root, path, bytes }: CopiesRequest): CopiesReply {
  try {
    return { id, written: writeCopies(root, path, bytes) }
  } catch (error) {
    return { id, written: false, error: String(error) }
  }
}

/**
 * Writes artifacts' precompressed copies, on the copies thread (`offThread`: a pass then renders
 * its next slice while the copies of the last one are compressed) or at once on the caller's.
 * `copy` resolves true once the copies agree with the main file on disk, false when they were not
 * written; it never rejects.
 */
export interface Copier {
  copy(path: string, bytes: Uint8Array, offThread: boolean): Promise<boolean>
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
 * copies are outstanding, does.
 */
export function createCopier(root: string, log: Logger, { entry = ENTRY, stallMs = STALL_MS } = {}): Copier {
  const thread = backgroundThread<Omit<CopiesRequest, 'id'>, CopiesReply>({ name: 'copies thread', entry, stallMs, log })

  function answered(reply: CopiesReply): boolean {
    if (reply.error) log.warn('artifact copies not written', { error: reply.error })
    return reply.written
  }

  return {
    copy(path, bytes, offThread) {
      if (!offThread) return Promise.resolve(answered(writeRequested({ id: 0, root, path, bytes })))
      return thread.run({ root, path, bytes }).then(answered, () => false)
    },
    close: () => thread.close(),
  }
}
