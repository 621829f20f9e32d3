import { createHmac, timingSafeEqual } from 'node:crypto'

/** How far a signature's timestamp may be from the receiver's clock before it is refused as a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300

const hmac = (secret: string, t: number, body: string): string => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')

/**
 * The `X-Folio-Signature` value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. The
 * timestamp is inside the signed text, so an old request cannot be replayed with a fresh one.
 */
export function sign(secret: string, body: string, t: number): string {
  return `t=${t},v1=${hmac(secret, t, body)}`
}

/**
 * What a receiver runs on the raw body it got (docs/webhooks.md carries the same function in plain
 * JS): true only when a `v1` value matches and the timestamp lies within the tolerance of `now`.
 */
export function verify(
  secret: string,
  header: string | null | undefined,
  body: string,
  now: number = Math.floor(Date.now() / 1000),
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = String(header ?? '')
    .split(',')
    .map((part) => part.trim().split('='))
  const t = parts.find(([key]) => key === 't')?.[1] ?? ''
  if (!/^\d{1,12}$/.test(t) || Math.abs(now - Number(t)) > toleranceSeconds) return false
  const expected = Buffer.from(hmac(secret, Number(t), body), 'hex')
  return parts.some(
    ([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/i.test(value ?? '') && timingSafeEqual(expected, Buffer.from(value!, 'hex')),
  )
}
