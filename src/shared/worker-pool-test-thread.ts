// A thread for worker-pool.test.ts: answers `{ id, echo }`; `crash` ends the thread, `throw`
// throws in it, `stall` blocks it for the given milliseconds first, `who` answers its thread id.
import { threadId } from 'node:worker_threads'

declare const self: Worker
self.onmessage = ({ data }: MessageEvent<{ id: number; say: string; ms?: number }>) => {
  if (data.say === 'crash') process.exit(1)
  if (data.say === 'throw') throw new Error('thrown on purpose')
  if (data.say === 'stall') Bun.sleepSync(data.ms ?? 5_000)
  self.postMessage({ id: data.id, echo: data.say === 'who' ? `thread ${threadId}` : data.say })
}
