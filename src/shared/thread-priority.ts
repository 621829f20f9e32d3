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
