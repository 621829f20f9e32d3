import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { webhookAttempts, webhookDeliveries, webhookReceivers } from '../../db/schema/index.ts'
import { parseIp } from '../../shared/ip.ts'
import { formatTime } from '../../shared/time.ts'
import type { Config } from '../../config.ts'
import { pinnedUrl, resolveReceiver } from './address.ts'
import { purgeRequest } from './purge-endpoint.ts'
import { indexNowRequest, webSubRequest } from './discovery-requests.ts'
import { cancelPending } from './receivers.ts'
import type { ClaimedDelivery } from './queue.ts'
import { judge, type Verdict } from './retry-policy.ts'
import { sign } from './sign.ts'

/**
 * How much of a receiver's answer the delivery log keeps: a status excerpt to tell "ok" from an
 * error page, not a copy of whatever the receiver (or a host it was pointed at) sends back.
 */
export const RESPONSE_LIMIT = 200
export const USER_AGENT = 'Folio-Webhooks/1'

export interface AttemptResult {
  /** Null when no answer came (timeout, refused connection). */
  httpStatus: number | null
  response: string | null
  durationMs: number
  failureReason: string | null
}

/** Reads at most `limit` bytes of the answer; a receiver that streams forever cannot hold the worker. */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  while (size <= limit) {
    const { value, done } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  if (size > limit) await reader.cancel().catch(() => undefined)
  const bytes = Buffer.concat(chunks).subarray(0, limit)
  // Printable text only: controls and escape sequences never reach a terminal running `cli webhook log`.
  return new TextDecoder().decode(bytes).replace(/[\u0000-\u001f\u007f-\u009f\ufffd]+/g, ' ') + (size > limit ? '…' : '')
}

const reasonOf = (error: unknown, timeoutMs: number): string => {
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`
  return `request failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500)
}

/** Rejects with the signal's reason once it fires: a DNS lookup gets the same deadline as the request. */
function aborted(signal: AbortSignal): Promise<never> {
  const deadline = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))
  // The timer fires after every delivery; once the race is decided, that rejection is nobody's.
  deadline.catch(() => undefined)
  return deadline
}

export interface SendOptions extends Pick<Config, 'siteUrl' | 'indexNow'> {
  webhookTimeoutMs: number
  webhookAllowPrivate: boolean
  purge: Pick<Config['purge'], 'format' | 'authHeader'>
}

/** What a delivery sends besides the common headers: the signed event, or a configured endpoint's own body. */
function requestOf(delivery: ClaimedDelivery, options: SendOptions, now: Date): { body: string; headers: Record<string, string> } {
  switch (delivery.kind) {
    case 'purge':
      return purgeRequest(delivery.payload, options.purge)
    case 'indexnow':
      return indexNowRequest(delivery.payload, options)
    case 'websub':
      return webSubRequest(delivery.payload)
    case 'webhook':
      return {
        body: delivery.payload,
        headers: { 'X-Folio-Signature': sign(delivery.secret, delivery.payload, Math.floor(now.getTime() / 1000)) },
      }
  }
}

/**
 * One POST of a delivery, signed afresh (a retry hours later still passes the receiver's tolerance).
 * The host is resolved and vetted first, and the connection goes to that very address, so a DNS
 * answer that changes between the check and the request (rebinding) cannot redirect it.
 */
export async function send(delivery: ClaimedDelivery, options: SendOptions, now: Date = new Date()): Promise<AttemptResult> {
  const timeoutMs = options.webhookTimeoutMs
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const url = new URL(delivery.url)
    const signal = AbortSignal.timeout(timeoutMs)
    const target = await Promise.race([resolveReceiver(url, options.webhookAllowPrivate), aborted(signal)])
    const request = requestOf(delivery, options, now)
    const response = await fetch(pinnedUrl(url, target), {
      method: 'POST',
      // TLS still checks the certificate against the receiver's name, not the address.
      tls: parseIp(url.hostname) ? undefined : { serverName: url.hostname },
      headers: {
        Host: url.host,
        'Content-Type': 'application/json',
        'User-Agent': USER_AGENT,
        'X-Folio-Event': delivery.event,
        'X-Folio-Delivery': String(delivery.id),
        ...request.headers,
      },
      body: request.body,
      // A redirect is an answer, not a delivery: following it could send the signed body elsewhere.
      redirect: 'manual',
      signal,
    })
    const body = await readCapped(response, RESPONSE_LIMIT)
    const ok = response.status >= 200 && response.status < 300
    return { httpStatus: response.status, response: body, durationMs: elapsed(), failureReason: ok ? null : `HTTP ${response.status}` }
  } catch (error) {
    return { httpStatus: null, response: null, durationMs: elapsed(), failureReason: reasonOf(error, timeoutMs) }
  }
}

const GONE_REASON = 'receiver answered 410 Gone; receiver disabled'

function outcome(verdict: Verdict, result: AttemptResult, attempt: number, now: Date) {
  switch (verdict.kind) {
    case 'delivered':
      return { status: 'delivered' as const, nextAttemptAt: null, failureReason: null, deliveredAt: formatTime(now) }
    case 'retry':
      return { status: 'pending' as const, nextAttemptAt: verdict.at, failureReason: result.failureReason }
    case 'give-up':
      return {
        status: 'failed' as const,
        nextAttemptAt: null,
        failureReason: `gave up after ${attempt} attempts; last: ${result.failureReason}`,
      }
    case 'gone':
      return { status: 'failed' as const, nextAttemptAt: null, failureReason: GONE_REASON }
  }
}

/**
 * Records an attempt and what follows from it, in one transaction: the delivery ends (2xx, retries
 * exhausted, 410) or waits for its next attempt; a 410 also disables the receiver and ends its
 * other waiting deliveries.
 */
export function recordAttempt(db: Db, delivery: ClaimedDelivery, result: AttemptResult, delaysMs: readonly number[], now: Date): Verdict {
  const attempt = delivery.attempts + 1
  const verdict = judge(result.httpStatus, attempt, delaysMs, now.getTime())
  const stamp = formatTime(now)
  db.transaction(
    (tx) => {
      tx.insert(webhookAttempts)
        .values({
          deliveryId: delivery.id,
          attempt,
          httpStatus: result.httpStatus,
          response: result.response,
          durationMs: result.durationMs,
          failureReason: result.failureReason,
          createdAt: stamp,
        })
        .run()
      // Only while still held: an administrator may have ended it meanwhile.
      tx.update(webhookDeliveries)
        .set({
          ...outcome(verdict, result, attempt, now),
          attempts: attempt,
          leaseUntil: null,
          lastHttpStatus: result.httpStatus,
          lastResponse: result.response,
          lastDurationMs: result.durationMs,
          updatedAt: stamp,
        })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'sending')))
        .run()
      if (verdict.kind === 'gone') {
        tx.update(webhookReceivers)
          .set({ enabled: false, disabledReason: `answered 410 Gone to delivery ${delivery.id} at ${stamp}`, updatedAt: stamp })
          .where(eq(webhookReceivers.id, delivery.receiverId))
          .run()
        cancelPending(tx, delivery.receiverId, 'receiver disabled after a 410 Gone answer', stamp)
      }
    },
    { behavior: 'immediate' },
  )
  return verdict
}
