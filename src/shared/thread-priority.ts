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
export function runInBackground(): void {
  try {
    setPriority(BACKGROUND_NICE)
  } catch {
    // Not permitted or not supported here: the default priority.
  }
}

/**
 * The body of a Worker thread of the render engine that answers each request with one synchronous
 * call (the copies thread, the placing thread), its garbage (the bytes it was handed, the
 * compressors' output: outside the heap) collected past a bound (heap-bound.ts). `background`:
 * at BACKGROUND_NICE, for a thread that computes (compression); a thread that mostly waits on the
 * file system keeps the process's priority, so each answer the render loop awaits comes at once.
 */
export function answerEachRequest<Req, Reply>(answer: (request: Req) => Reply, { background }: { background: boolean }): void {
  if (background) runInBackground()
  const self = globalThis as unknown as Worker
  const heap = heapBound()
  self.onmessage = ({ data }: MessageEvent<Req>) => {
    self.postMessage(answer(data))
    heap.settle()
  }
}
