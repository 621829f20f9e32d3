import type { AnyElysia } from 'elysia'
import type { Server } from 'bun'
import type { CallLog, Caller } from '../modules/tokens/tokens.ts'
import type { Logger } from '../shared/log.ts'
import type { FieldError } from '../shared/errors.ts'
import { inSubnet, parseIp, type Subnet } from '../shared/ip.ts'
import { readAtMost } from '../shared/stream.ts'
import { loggedPath, pathFault } from './path-rule.ts'
import { splitUrl } from './request-url.ts'
import { crossSite, isConsolePath } from './session.ts'
import { attachCall, callOf, presentedToken } from './call.ts'
import { envelopeResponse } from './envelope.ts'
import { isPrivateAnswer, PRIVATE_CACHE, SECURITY_HEADERS } from './headers.ts'
import { idempotent, type IdempotencyStore } from './idempotency.ts'
import { rateLimitHeaders, type RateLimiter } from './rate-limit.ts'

export interface ShellDeps {
  app: Pick<AnyElysia, 'handle'>
  /**
   * The answer of a pre-rendered artifact the URL names, or null (publishing/serve.ts, `artifactRead`):
   * the fast path of anonymous reads, taken before everything else.
   */
  readArtifact(request: Request, pathname: string, query: string): Response | null
  authenticate(token: string): Caller | null
  /** The console's signed-in caller behind a session cookie (http/session.ts), or null. */
  sessionCaller(request: Request): Caller | null
  /** Records a state-changing console call in the audit log (who, what, status, from where). */
  audit(caller: Caller, request: Request, status: number, ip: string): void
  rateLimiter: RateLimiter
  callLog: CallLog
  idempotency: IdempotencyStore
  log: Logger
  /** Bodies above this are refused before parsing; uploads get their own, larger bound. */
  maxJsonBytes: number
  maxUploadBytes: number
  /** JSON bodies on these paths may carry a whole upload as base64 (the MCP endpoint's upload_media). */
  base64UploadPaths: readonly string[]
  /** Adds CSP_REPORT_URL's directive to an answer's Content-Security-Policy (csp-report.ts), or does nothing. */
  cspReporting(response: Response): void
  /** Null: X-Forwarded-For is ignored. Else the proxies (TRUSTED_PROXIES) whose header is believed. */
  trustedProxies: readonly Subnet[] | null
}

/**
 * The client address. Behind trusted proxies (TRUST_PROXY=1, TRUSTED_PROXIES) each proxy appends
 * the address it saw to X-Forwarded-For, so the header is read from the right, past every trusted
 * hop, to the first address no trusted proxy vouches for. A peer that is not a trusted proxy is the
 * client whatever it sends: otherwise any caller could name itself a fresh address and dodge the
 * per-IP limits.
 */
export function clientIp(
  request: Request,
  server: Pick<Server<unknown>, 'requestIP'> | null,
  trustedProxies: readonly Subnet[] | null,
): string {
  const peer = server?.requestIP(request)?.address ?? '127.0.0.1'
  // Not behind a proxy (the default, and every anonymous read on the fast path): the peer, with no closure made.
  if (!trustedProxies) return peer
  const trusted = (address: string) => {
    const ip = parseIp(address)
    return ip !== null && trustedProxies!.some((subnet) => inSubnet(ip, subnet))
  }
  if (!trusted(peer)) return peer
  const hops = (request.headers.get('x-forwarded-for') ?? '').split(',').map((part) => part.trim())
  let client = peer
  for (let i = hops.length - 1; i >= 0 && trusted(client); i--) {
    const hop = hops[i]!
    // A hop that is no address ends the chain: the last trusted proxy is all that is known.
    if (!parseIp(hop)) break
    client = hop
  }
  return client
}

/** One line of the access log. */
type AccessLine = {
  requestId: string
  method: string
  path: string
  status: number
  code: string | null
  durationMs: number
  /** The token's name, never the token. */
  token: string | null
  ip: string
}

/** Whole milliseconds since `started` (a `performance.now()` time). */
const sinceMs = (started: number) => Math.round(performance.now() - started)

/**
 * The shell around the Elysia app: request id, caller, rate limit (spec §8: a policy rejection
 * is HTTP 200 with a non-0000 code), body size bound, Idempotency-Key, and the per-token call log
 * (spec §5.9).
 */
export function createFetch(deps: ShellDeps) {
  /** One line per request in the access log. */
  const logRequest = (line: AccessLine) => deps.log.info('request', line)

  /**
   * An anonymous GET/HEAD of an artifact, as Caddy would serve it from disk: from memory with
   * headers made once, plus a request id and an access line. Not counted against the rate limit
   * (spec §8 limits each token and IP pair; Caddy serves these reads without one). A token or an
   * Origin (CORS) takes the general path.
   */
  function artifactRead(request: Request, server: Server<unknown> | null, started: number): Response | null {
    const method = request.method
    if (method !== 'GET' && method !== 'HEAD') return null
    const headers = request.headers
    if (headers.has('authorization') || headers.has('x-api-token') || headers.has('origin')) return null
    // The URL is split once, for the artifact's file and for the access line.
    const { pathname, query } = splitUrl(request.url)
    const response = deps.readArtifact(request, pathname, query)
    if (!response) return null
    const requestId = crypto.randomUUID()
    response.headers.set('X-Request-Id', requestId)
    deps.cspReporting(response)
    const ip = clientIp(request, server, deps.trustedProxies)
    logRequest({ requestId, method, path: pathname, status: response.status, code: '0000', durationMs: sinceMs(started), token: null, ip })
    return response
  }

  // Not async: an artifact's answer goes back as it is, without a promise around it.
  return function fetch(incoming: Request, server: Server<unknown> | null = null): Response | Promise<Response> {
    const started = performance.now()
    return artifactRead(incoming, server, started) ?? shell(incoming, server, started)
  }

  async function shell(incoming: Request, server: Server<unknown> | null, started: number): Promise<Response> {
    // A body without Content-Length (chunked) is read here up to the same bound, never further.
    const bounded = await readUndeclaredBody(incoming, bodyLimit(incoming, deps))
    const request = bounded === TOO_LARGE ? incoming : bounded
    const token = presentedToken(request.headers)
    const caller = token ? deps.authenticate(token) : deps.sessionCaller(request)
    const ip = clientIp(request, server, deps.trustedProxies)
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

    const who = caller?.session ? `user:${caller.session.userId}` : caller ? `token:${caller.tokenId}` : null
    const decision = deps.rateLimiter.take(who ? `${who}|${ip}` : ip)
    let response: Response
    let fault: FieldError | null
    if (!decision.allowed) {
      response = envelopeResponse({
        code: 'RATE_LIMITED',
        message: `Rate limit of ${decision.limit} calls per minute exceeded; retry in ${decision.resetSeconds} s.`,
        data: { retryAfterSeconds: decision.resetSeconds },
      })
      call.code = 'RATE_LIMITED'
    } else if (!token && (caller?.session || isConsolePath(request)) && crossSite(request)) {
      response = envelopeResponse(
        {
          code: 'CROSS_SITE_REFUSED',
          message: 'A state-changing request from another site (Origin / Sec-Fetch-Site) was refused.',
          data: null,
        },
        403,
      )
      call.code = 'CROSS_SITE_REFUSED'
    } else if ((fault = requestFault(request))) {
      response = envelopeResponse(
        { code: 'VALIDATION_FAILED', message: `${fault.field}: ${fault.message}`, data: { errors: [fault] } },
        400,
      )
      call.code = 'VALIDATION_FAILED'
    } else if (bounded === TOO_LARGE || bodyTooLarge(request, deps)) {
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
      const idempotencyCaller = who ?? `ip:${ip}`
      response = await idempotent(request, idempotencyCaller, deps.idempotency, () => deps.app.handle(request))
    }

    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.headers.set(name, value)
    response.headers.set('X-Request-Id', call.requestId)
    const path = new URL(request.url).pathname
    // Defaults: a route's own value (the previews' `Referrer-Policy: no-referrer`) wins.
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value)
    if (isPrivateAnswer(path, call.tokenPresented || caller !== null)) response.headers.set('Cache-Control', PRIVATE_CACHE)
    deps.cspReporting(response)
    const durationMs = sinceMs(started)
    logRequest({
      requestId: call.requestId,
      method: request.method,
      path: loggedPath(path),
      status: response.status,
      code: call.code,
      durationMs,
      token: call.caller?.name ?? null,
      ip,
    })
    if (caller?.session && !token && request.method !== 'GET' && request.method !== 'HEAD') {
      try {
        deps.audit(caller, request, response.status, ip)
      } catch (error) {
        deps.log.warn('audit log write failed', { requestId: call.requestId, error: String(error) })
      }
    }
    if (call.tokenPresented) {
      try {
        deps.callLog.record({
          tokenId: call.caller?.tokenId ?? null,
          requiredScope: call.requiredScope,
          method: request.method,
          path: loggedPath(path),
          status: response.status,
          code: call.code,
          message: call.message?.slice(0, 500) ?? null,
          ip,
          durationMs,
        })
      } catch (error) {
        deps.log.warn('call log write failed', { requestId: call.requestId, error: String(error) })
      }
    }
    return response
  }
}

/**
 * The path rule of http/path-rule.ts (Caddy keeps the same one), then the query's: no endpoint
 * takes a repeated query key, and none wants control characters: a second `size=` silently
 * winning, or a NUL cutting a LIKE pattern short, would answer a question nobody asked.
 */
function requestFault(request: Request): FieldError | null {
  const pathProblem = pathFault(splitUrl(request.url).pathname)
  if (pathProblem) return { field: 'path', message: pathProblem }
  const query = request.url.indexOf('?')
  if (query < 0) return null
  const seen = new Set<string>()
  for (const [key, value] of new URLSearchParams(request.url.slice(query + 1))) {
    if (seen.has(key)) return { field: key, message: 'given more than once' }
    if (/[\u0000-\u001f\u007f]/.test(value)) return { field: key, message: 'contains control characters' }
    seen.add(key)
  }
  return null
}

/** The length of `bytes` bytes written as base64. */
export const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3)

/** The largest body a request may carry: uploads get MAX_UPLOAD_BYTES plus multipart framing. */
function bodyLimit(request: Request, deps: ShellDeps): number {
  const isUpload = (request.headers.get('content-type') ?? '').startsWith('multipart/form-data')
  if (isUpload) return deps.maxUploadBytes + 64 * 1024
  const carriesBase64 = deps.base64UploadPaths.includes(new URL(request.url).pathname)
  return carriesBase64 ? base64Length(deps.maxUploadBytes) + deps.maxJsonBytes : deps.maxJsonBytes
}

function bodyTooLarge(request: Request, deps: ShellDeps): boolean {
  return Number(request.headers.get('content-length') ?? 0) > bodyLimit(request, deps)
}

const TOO_LARGE = Symbol('too large')

/**
 * A request whose body arrives without Content-Length, re-made with that body read in full while
 * it stays within `limit` (reading stops at the first byte past it). Requests without a body or
 * with a declared length are returned as they are; `bodyTooLarge` judges those.
 */
async function readUndeclaredBody(request: Request, limit: number): Promise<Request | typeof TOO_LARGE> {
  if (request.body === null || request.headers.has('content-length')) return request
  const body = await readAtMost(request.body, limit)
  return body ? new Request(request.url, { method: request.method, headers: request.headers, body }) : TOO_LARGE
}
