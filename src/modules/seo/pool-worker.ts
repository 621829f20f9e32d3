// The Bun Worker entry started by pool.ts: one SEO job at a time, with the same engine as the request thread.
import type { PoolReply, PoolRequest } from './pool.ts'
import { runSeoJob } from './world-facts.ts'

declare const self: { onmessage: ((event: MessageEvent<PoolRequest>) => void) | null; postMessage(message: PoolReply): void }

self.onmessage = ({ data: { id, job } }) => {
  let reply: PoolReply
  try {
    reply = { id, result: runSeoJob(job) }
  } catch (error) {
    reply = { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
  self.postMessage(reply)
}
