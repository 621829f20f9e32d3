import type { Handler } from './handler.ts'

/**
 * CORS for the anonymous endpoints (operations.md `CORS_ORIGINS`): browsers on an allowed
 * origin may read `/api/v1/blog/…` and post claps and comments; nothing else (writes, the admin
 * API, media uploads) is ever offered cross-origin, and no credentials are, since tokens travel in
 * headers a browser only sends when a preflight allows them — which it never does.
 */
const ENGAGEMENT = /^\/api\/v1\/blog\/posts\/[^/]+\/(reactions|comments)$/
const READS = /^\/api\/v1\/blog\//
const EXPOSED = 'ETag, Last-Modified, Retry-After, X-Request-Id'

/** The methods a cross-origin browser may use on a path, or none. */
function methodsFor(pathname: string): string[] {
  if (ENGAGEMENT.test(pathname)) return ['POST']
  return READS.test(pathname) ? ['GET', 'HEAD'] : []
}

export function withCors(app: Handler, allowed: readonly string[]): Handler {
  const origins = new Set(allowed)
  return {
    async handle(request) {
      const origin = request.headers.get('origin')
      const pathname = new URL(request.url).pathname
      const methods = origin && origins.has(origin) ? methodsFor(pathname) : []
      if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
        // A preflight: allowed only for the methods of this path; refused ones get no CORS headers.
        const wanted = request.headers.get('access-control-request-method')!.toUpperCase()
        const headers: Record<string, string> = { vary: 'Origin', 'cache-control': 'no-store' }
        if (methods.includes(wanted))
          Object.assign(headers, {
            'access-control-allow-origin': origin!,
            'access-control-allow-methods': methods.join(', '),
            'access-control-allow-headers': 'Content-Type, Idempotency-Key',
            'access-control-max-age': '600',
          })
        return new Response(null, { status: 204, headers })
      }
      const response = await app.handle(request)
      if (!methods.includes(request.method)) return response
      const answer = new Response(response.body, response)
      answer.headers.set('access-control-allow-origin', origin!)
      answer.headers.set('access-control-expose-headers', EXPOSED)
      answer.headers.append('vary', 'Origin')
      return answer
    },
  }
}
