import type { Clock } from '../../shared/time.ts'

/** What a WebAuthn challenge was issued for: adding a passkey, or signing in (alone, or after a password). */
export type ChallengePurpose = { kind: 'register'; userId: number } | { kind: 'sign-in'; userId: number | null; secondFactor: boolean }

/** A ceremony must finish within this long (the browser's own timeout is shorter). */
export const CHALLENGE_TTL_MS = 5 * 60_000
/** Challenges remembered at most (oldest forgotten first), so a flood of options calls cannot grow memory. */
const MAX_PENDING = 10_000

/**
 * Issued challenges, in memory and single-use: a response is verified against the challenge it
 * names only if that challenge was issued here, is unexpired and was never used (no replay). A
 * restart forgets them, which only means a ceremony in flight starts again.
 */
export function createChallenges(clock: Clock) {
  const pending = new Map<string, { purpose: ChallengePurpose; expires: number }>()
  return {
    remember(challenge: string, purpose: ChallengePurpose): void {
      const now = clock().getTime()
      // Insertion order is expiry order (one TTL): drop expired ones from the front, stop at the first live one.
      for (const [key, entry] of pending) {
        if (entry.expires > now) break
        pending.delete(key)
      }
      pending.set(challenge, { purpose, expires: now + CHALLENGE_TTL_MS })
      while (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!)
    },
    /** The purpose `challenge` was issued for, spending it; null when unknown, used or expired. */
    take(challenge: string): ChallengePurpose | null {
      const entry = pending.get(challenge)
      pending.delete(challenge)
      return entry && entry.expires > clock().getTime() ? entry.purpose : null
    },
  }
}
