import { heapBound } from './heap-bound.ts'
import { setPriority } from 'node:os'

/**
 * The nice value of the threads that do background work (render threads, the copies thread):
 * under Linux's scheduler a runnable thread at nice 0 outweighs one at 10 about ninefold and
 * preempts it on wake-up, so on a small box (two cores shared by the serving thread and these)
 * a read arriving during a render is answered at once instead of after the render thread's time
 * slice (docs/publishing.md, "Reads never wait for renders"). Their throughput is unchanged when
 * the serving thread is idle.
 */
export const BACKGROUND_NICE = 10

/**
 * Lowers the calling thread's priority to BACKGROUND_NICE. On Linux a nice value is per thread, so
 * called first thing on a Worker it leaves the thread that started it alone. Best effort: where
 * the system refuses, the thread runs at its default priority.
 */
function runInBackground(): void {
  try {
    setPriority(BACKGROUND_NICE)
  } catch {
    // Not permitted or not supported here: the default priority.
  }
}

/**
 * For a Worker thread of the render engine that answers each request with one synchronous call (the
 * copies thread, the placing thread), its garbage (the bytes it was handed, the compressors'
 * output: outside the heap) collected past a bound (heap-bound.ts). A request that says
 * `background: true` (the server's copies: compression, which computes) lowers the thread to
 * BACKGROUND_NICE, once and for good (a thread serves one starter); a CLI command's requests (a
 * rebuild there has no reader to yield to, and at nice 10 it would only lose the cores to the box's
 * other processes) and the placing thread's (it mostly waits on the file system, and the render loop
 * awaits each answer) leave it at the process's priority.
 */
export function answerEachRequest<Req, Reply>(answer: (request: Req) => Reply): void {
  const self = globalThis as unknown as Worker
  const heap = heapBound()
  const priority = backgroundWhenAsked()
  self.onmessage = ({ data }: MessageEvent<Req & { background?: boolean }>) => {
    priority(data.background === true)
    self.postMessage(answer(data))
    heap.settle()
  }
}

/**
 * For a Worker whose starter says with each request whether it serves reads (the server) or not
 * (a CLI command): lowers the thread's priority at the first request that asks for it. A thread
 * serves one starter, so it is never raised again.
 */
export function backgroundWhenAsked(): (background: boolean) => void {
  let lowered = false
  return (background) => {
    if (!background || lowered) return
    lowered = true
    runInBackground()
  }
}
