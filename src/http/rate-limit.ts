/**
 * Fixed one-minute windows per key (token+IP, or IP for anonymous callers). In-process state is
 * right for Folio's single-box deployment; the map is swept when the window turns, so memory is
 * bounded by the callers of one minute.
 */
export interface RateDecision {
  allowed: boolean
  limit: number
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

export function createRateLimiter(limit: number, clock: () => number = Date.now) {
  let window = -1
  let counts = new Map<string, number>()
  return {
    take(key: string): RateDecision {
      const now = clock()
      const current = Math.floor(now / 60_000)
      if (current !== window) {
        window = current
        counts = new Map()
      }
      const used = (counts.get(key) ?? 0) + 1
      counts.set(key, used)
      const resetSeconds = Math.max(1, Math.ceil(((current + 1) * 60_000 - now) / 1000))
      return { allowed: used <= limit, limit, remaining: Math.max(0, limit - used), resetSeconds }
    },
  }
}
export type RateLimiter = ReturnType<typeof createRateLimiter>

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  }
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds)
  return headers
}
