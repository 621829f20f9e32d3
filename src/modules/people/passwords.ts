import { invalidField } from '../../shared/errors.ts'
import { isCommonPassword } from './common-passwords.ts'

/** The documented minimum (docs/admin.md); longer is better, and any character counts. */
export const MIN_PASSWORD_LENGTH = 12
/** argon2 hashes what it is given: a bound keeps one sign-in from costing more than another. */
export const MAX_PASSWORD_LENGTH = 256

/** Patterns found at the top of every breach list: one character or a keyboard run, repeated. */
const TRIVIAL = /^(.)\1+$|^(?:0123456789|1234567890|qwertyuiop|asdfghjkl|password|passw0rd|letmein|iloveyou|abc123|admin)+\d*$/i

/** Refuses a password that is too short, too long, obviously guessable or on breach lists (naming the field). */
export async function checkPassword(password: string, field = 'password', personal: readonly string[] = []): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH) throw invalidField(field, `at least ${MIN_PASSWORD_LENGTH} characters`)
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidField(field, `at most ${MAX_PASSWORD_LENGTH} characters`)
  const lower = password.toLowerCase()
  if (TRIVIAL.test(password) || personal.some((word) => word.length >= 4 && lower.includes(word.toLowerCase())))
    throw invalidField(field, 'too easy to guess: avoid repeats, keyboard runs, common words and your own name or email')
  if (await isCommonPassword(password))
    throw invalidField(field, 'found on lists of breached passwords: choose another', 'PASSWORD_BREACHED')
}

export const hashPassword = (password: string): Promise<string> => Bun.password.hash(password, { algorithm: 'argon2id' })

/**
 * Verified against when the account is unknown, so a miss costs the same hash as a hit: an argon2id
 * hash with hashPassword's parameters (Bun's defaults, m=64 MiB, t=2), of a password nobody sends,
 * written out rather than hashed at every start (an argon2 hash costs tens of ms of CPU and 64 MiB).
 */
const DECOY = '$argon2id$v=19$m=65536,t=2,p=1$JnEIpoh2ZdCzaex6U9X2iMhoBTSDbi58OSPYjcsN90U$osNeq0aDEqNUM+G4ZOmk1dQYL+YNBrCJmWJQFhpf6oU'

/** Whether `password` matches `hash` (or, with no hash, a decoy: always false, at the same cost). */
export async function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false
  const ok = await Bun.password.verify(password, hash ?? DECOY)
  return ok && hash !== null
}
