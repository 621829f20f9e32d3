/**
 * Preloaded into a server by bench/soak.bench.ts (`SOAK_STALLS=1`, `bun --preload`): on the thread
 * that answers reads, a 1 ms interval notes each turn of the event loop that came more than 5 ms
 * late, with what the thread did meanwhile by the kernel's own account (/proc's schedstat of the
 * thread: time on a core, time runnable but waiting for one; the rest it slept, on I/O or a lock).
 * So a stall the server's own work caused (on a core) is told from one the machine caused (waiting
 * for a core). One line per stall, appended to SOAK_STALL_FILE: end (epoch ms), lateness, on-core
 * ms, waiting-for-a-core ms. Render and other threads are left alone.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { isMainThread } from 'node:worker_threads'

const file = process.env.SOAK_STALL_FILE
const STALL_MS = 5

// Only the server's (its CLI commands get the same environment).
if (file && isMainThread && process.argv[1]?.endsWith('src/main.ts')) {
  // The main thread's task id is the process id.
  const schedstat = `/proc/self/task/${process.pid}/schedstat`
  const sched = () => readFileSync(schedstat, 'utf8').split(' ').slice(0, 2).map(Number) as [number, number]
  let last = performance.now()
  let [onCore, waiting] = sched()
  setInterval(() => {
    const now = performance.now()
    const [c, w] = sched()
    const late = now - last - 1
    if (late > STALL_MS)
      appendFileSync(
        file,
        `${(performance.timeOrigin + now).toFixed(1)} ${late.toFixed(1)} ${((c - onCore) / 1e6).toFixed(2)} ${((w - waiting) / 1e6).toFixed(2)}\n`,
      )
    last = now
    onCore = c
    waiting = w
  }, 1).unref()
}
