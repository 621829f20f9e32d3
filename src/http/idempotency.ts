import { type DomainError, IdempotencyKeyInUse, IdempotencyKeyReused, invalidField } from '../shared/errors.ts'
import { callOf } from './call.ts'
import { envelopeResponse } from './envelope.ts'

/**
 * `Idempotency-Key` on POST writes (docs/agents.md, "Retries"): the first request with a key runs
 * and its answer is kept; a retry (same caller, key, method, path and body) within 24 hours gets
 * that answer again, byte for byte, with `Idempotent-Replayed: true`, and changes nothing.
 * Implemented once, around the whole app, because only there are both the raw request bytes and
 * the final answer (error mapping included) at hand.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/** 1–255 visible ASCII characters (no spaces or control characters). */
const KEY = /^[\x21-\x7e]{1,255}$/

/** A kept answer. */
export interface StoredAnswer {
  status: number
  headers: [string, string][]
  body: string
}

export type Claim = { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'in-use' } | { kind: 'reused' }

/** Where keys and answers live (SQLite: idempotency-store.ts). */
export interface IdempotencyStore {
  /** Atomically: run (the key is now held), replay, in use, or reused for another request. */
  claim(caller: string, key: string, fingerprint: string): Claim
  complete(caller: string, key: string, answer: StoredAnswer): void
  /** Frees a key whose request did not produce an answer worth keeping. */
  release(caller: string, key: string): void
}

/** The header's key, or a 400 naming the header. */
export function idempotencyKeyOf(headers: Headers): string | null {
  const key = headers.get('idempotency-key')
  if (key === null) return null
  if (!KEY.test(key)) throw invalidField('Idempotency-Key', 'expected 1 to 255 visible ASCII characters (no spaces)')
  return key
}

/**
 * SHA-256 of method, path and raw body. A multipart body is hashed without its boundary, which
 * clients pick at random for every attempt (curl -F does), so a retried upload of the same bytes
 * is recognised; nothing else is parsed.
 */
export async function fingerprintOf(request: Request): Promise<string> {
  const url = new URL(request.url)
  const hasher = new Bun.CryptoHasher('sha256').update(`${request.method} ${url.pathname}${url.search}\n`)
  const bytes = Buffer.from(await request.clone().arrayBuffer())
  const boundary = /^multipart\/form-data;.*\bboundary="?([^";]+)"?/i.exec(request.headers.get('content-type') ?? '')?.[1]
  if (!boundary) return hasher.update(bytes).digest('hex')
  const needle = Buffer.from(boundary)
  let from = 0
  for (let at = bytes.indexOf(needle, from); at >= 0; at = bytes.indexOf(needle, from)) {
    hasher.update(bytes.subarray(from, at))
    from = at + needle.length
  }
  return hasher.update(bytes.subarray(from)).digest('hex')
}

function refuse(request: Request, error: DomainError): Response {
  callOf(request).code = error.code
  return envelopeResponse({ code: error.code, message: error.message, data: error.data }, error.status)
}

const replay = (answer: StoredAnswer): Response => {
  const response = new Response(answer.body, { status: answer.status, headers: answer.headers })
  response.headers.set('Idempotent-Replayed', 'true')
  return response
}

/**
 * Runs `handle` under the request's `Idempotency-Key`, if it is a POST under /api/ that has one. `caller` is
 * `token:<id>` for a valid token, else `ip:<address>`. Server errors (5xx) are not kept: the key is
 * freed so that the retry runs again.
 */
export async function idempotent(
  request: Request,
  caller: string,
  store: IdempotencyStore,
  handle: () => Promise<Response>,
): Promise<Response> {
  // Only the API's POST writes: other paths (an MCP stream, say) may answer with a body that never ends.
  if (request.method !== 'POST' || !new URL(request.url).pathname.startsWith('/api/')) return handle()
  let key: string | null
  try {
    key = idempotencyKeyOf(request.headers)
  } catch (error) {
    return refuse(request, error as DomainError)
  }
  if (key === null) return handle()
  const claim = store.claim(caller, key, await fingerprintOf(request))
  if (claim.kind === 'replay') return replay(claim.answer)
  if (claim.kind === 'in-use') return refuse(request, new IdempotencyKeyInUse())
  if (claim.kind === 'reused') return refuse(request, new IdempotencyKeyReused())
  let response: Response
  try {
    response = await handle()
  } catch (error) {
    store.release(caller, key)
    throw error
  }
  if (response.status >= 500) {
    store.release(caller, key)
    return response
  }
  const answer: StoredAnswer = { status: response.status, headers: [...response.headers], body: await response.text() }
  store.complete(caller, key, answer)
  return new Response(answer.body, { status: answer.status, headers: answer.headers })
}
