import { DomainError } from '../../shared/errors.ts'

/** Failed sign-ins (by password or passkey) allowed in the window, per account and per address (docs/admin.md, "Sign-in"). */
export const THROTTLE = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 } as const
/** Keys remembered at most (oldest forgotten first), so a flood of addresses cannot grow memory. */
const MAX_KEYS = 10_000

export class SignInThrottled extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(
      'SIGN_IN_THROTTLED',
      429,
      `Too many failed sign-ins; try again in ${Math.ceil(retryAfterSeconds / 60)} min.`,
      { retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds) },
    )
  }
}

/** Failures counted in memory (a restart forgives them: argon2id keeps each guess slow anyway). */
export function createSignInThrottle(clock: () => Date) {
  const failures = new Map<string, number[]>()
  const recent = (key: string, now: number) => (failures.get(key) ?? []).filter((at) => now - at < THROTTLE.windowMs)
  // A passkey sign-in names no account before it is verified: its failures count for the address only.
  const keys = (email: string | null, ip: string) => [
    ...(email === null ? [] : [[`account:${email.trim().toLowerCase()}`, THROTTLE.perAccount] as const]),
    [`address:${ip}`, THROTTLE.perAddress] as const,
  ]
  return {
    /** Throws SignInThrottled when the account or the address has used up its failures. */
    check(email: string | null, ip: string): void {
      const now = clock().getTime()
      for (const [key, limit] of keys(email, ip)) {
        const times = recent(key, now)
        if (times.length >= limit) throw new SignInThrottled(Math.max(1, Math.ceil((times[0]! + THROTTLE.windowMs - now) / 1000)))
      }
    },
    failed(email: string | null, ip: string): void {
      const now = clock().getTime()
      for (const [key, limit] of keys(email, ip)) {
        const times = [...recent(key, now), now].slice(-limit)
        // Deleted and set again, so the map's order is the order of last failure (oldest evicted first).
        failures.delete(key)
        failures.set(key, times)
      }
      while (failures.size > MAX_KEYS) failures.delete(failures.keys().next().value!)
    },
    /** A success forgives the account's failures (the address keeps its count). */
    succeeded(email: string): void {
      failures.delete(`account:${email.trim().toLowerCase()}`)
    },
  }
}
export type SignInThrottle = ReturnType<typeof createSignInThrottle>
