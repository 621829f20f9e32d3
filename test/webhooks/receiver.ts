import type { Folio } from '../support/folio.ts'
import { WAIT_LIMIT_MS } from '../support/until.ts'

/** One request as a receiver saw it. */
export interface Received {
  /** Epoch ms when it arrived. */
  at: number
  path: string
  headers: Headers
  body: string
}

export type Responder = (request: Received, nthForPath: number) => Response | Promise<Response>

/**
 * A real webhook receiver on loopback: records every request; each path answers through the
 * responder (200 "ok" by default), so one server can play several receivers (`/a`, `/b`).
 */
export function startReceiver(responder: Responder = () => new Response('ok')) {
  const requests: Received[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const received = { at: Date.now(), path: new URL(request.url).pathname, headers: request.headers, body: await request.text() }
      requests.push(received)
      return responder(received, requests.filter((r) => r.path === received.path).length)
    },
  })
  const on = (path: string) => requests.filter((r) => r.path === path)
  return {
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    requests,
    on,
    /** Waits (bounded) until `path` got `count` requests; returns them. */
    async waitFor(path: string, count: number, timeoutMs = WAIT_LIMIT_MS): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs
      while (on(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path}: expected ${count} request(s), got ${on(path).length} within ${timeoutMs} ms`)
        await Bun.sleep(10)
      }
      return on(path)
    },
    stop: () => server.stop(true),
  }
}

export const SECRET = 'whsec_test_0123456789abcdef'

/** A fast-polling worker, and no rate limit in the way of the log polling below. */
export const TEST_ENV = { WEBHOOK_POLL_MS: '50', RATE_LIMIT_PER_MINUTE: '1000000' }

/** Saves a receiver through the admin endpoint; returns its listing. */
export async function addReceiver(folio: Folio, adminToken: string, body: Record<string, unknown>) {
  const saved = await folio.call('POST', '/api/admin/blog/webhooks/save', { token: adminToken, body: { secret: SECRET, ...body } })
  if (saved.body?.code !== '0000') throw new Error(`receiver save failed: ${saved.text}`)
  return saved.body.data as { id: number; url: string; events: string[]; enabled: boolean }
}

/** Waits (bounded) until the delivery log satisfies `done`; returns the records. */
export async function waitForLog(
  folio: Folio,
  adminToken: string,
  done: (records: any[]) => boolean,
  timeoutMs = WAIT_LIMIT_MS,
): Promise<any[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const log = await folio.call('GET', '/api/admin/blog/webhooks/events?size=100', { token: adminToken })
    const records = log.body.data.records as any[]
    if (done(records)) return records
    if (Date.now() > deadline) throw new Error(`delivery log never matched: ${JSON.stringify(records)}`)
    await Bun.sleep(50)
  }
}
