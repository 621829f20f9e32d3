import type { AnyElysia } from 'elysia'
import type { Server } from 'bun'
import type { CallLog, Caller } from '../modules/tokens/tokens.ts'
import type { Logger } from '../shared/log.ts'
import { attachCall, callOf, presentedToken } from './call.ts'
import { envelopeResponse } from './envelope.ts'
import { rateLimitHeaders, type RateLimiter } from './rate-limit.ts'

export interface ShellDeps {
  app: Pick<AnyElysia, 'handle'>
  authenticate(token: string): Caller | null
  rateLimiter: RateLimiter
  callLog: CallLog
  log: Logger
  /** Bodies above this are refused before parsing; uploads get their own, larger bound. */
  maxJsonBytes: number
  maxUploadBytes: number
}

const isLoopback = (address: string) => address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1'

/**
 * The client address. Behind Caddy on loopback the peer is Caddy, which sets the last
 * X-Forwarded-For entry to the address it saw; from anywhere else the header is not trusted.
 */
export function clientIp(request: Request, server: Pick<Server<unknown>, 'requestIP'> | null): string {
  const peer = server?.requestIP(request)?.address ?? '127.0.0.1'
  if (!isLoopback(peer)) return peer
  const forwarded = request.headers
    .get('x-forwarded-for')
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  return forwarded?.at(-1) ?? peer
}

/**
 * The shell around the Elysia app: request id, caller, rate limit (spec §8: a policy rejection
 * is HTTP 200 with a non-0000 code), body size bound, and the per-token call log (spec §5.9).
 */
export function createFetch(deps: ShellDeps) {
  return async function fetch(request: Request, server: Server<unknown> | null = null): Promise<Response> {
    const started = performance.now()
    const token = presentedToken(request.headers)
    const caller = token ? deps.authenticate(token) : null
    const ip = clientIp(request, server)
    attachCall(request, {
      requestId: crypto.randomUUID(),
      ip,
      tokenPresented: token !== null,
      caller,
      requiredScope: null,
      code: null,
      message: null,
    })
    const call = callOf(request)

    const decision = deps.rateLimiter.take(caller ? `${caller.tokenId}|${ip}` : ip)
    let response: Response
    if (!decision.allowed) {
      response = envelopeResponse({
        code: 'RATE_LIMITED',
        message: `Rate limit of ${decision.limit} calls per minute exceeded; retry in ${decision.resetSeconds} s.`,
        data: { retryAfterSeconds: decision.resetSeconds },
      })
      call.code = 'RATE_LIMITED'
    } else if (bodyTooLarge(request, deps)) {
      response = envelopeResponse(
        {
          code: 'PAYLOAD_TOO_LARGE',
          message: 'The request body is larger than this endpoint accepts.',
          data: { errors: [{ field: 'body', message: 'too large' }] },
        },
        400,
      )
      call.code = 'PAYLOAD_TOO_LARGE'
    } else {
      response = await deps.app.handle(request)
    }

    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.headers.set(name, value)
    response.headers.set('X-Request-Id', call.requestId)
    if (call.tokenPresented) {
      try {
        deps.callLog.record({
          tokenId: call.caller?.tokenId ?? null,
          requiredScope: call.requiredScope,
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          code: call.code,
          message: call.message?.slice(0, 500) ?? null,
          ip,
          durationMs: Math.round(performance.now() - started),
        })
      } catch (error) {
        deps.log.warn('call log write failed', { requestId: call.requestId, error: String(error) })
      }
    }
    return response
  }
}

function bodyTooLarge(request: Request, deps: ShellDeps): boolean {
  const length = Number(request.headers.get('content-length') ?? 0)
  const isUpload = (request.headers.get('content-type') ?? '').startsWith('multipart/form-data')
  // Multipart framing adds a little on top of the file itself.
  return length > (isUpload ? deps.maxUploadBytes + 64 * 1024 : deps.maxJsonBytes)
}
