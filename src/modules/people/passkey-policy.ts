import { eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { settings } from '../../db/schema/index.ts'
import { DomainError } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import { countPasskeys } from './passkeys.ts'
import type { Role } from './roles.ts'

/** The owner's setting (a private one: never in the publication settings served publicly). */
const KEY = 'security.requirePasskeyForAdmins'

export const requirePasskeyForAdmins = (db: Queryable): boolean =>
  db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).get()?.value === '1'

/** Whether a password sign-in of this role must be confirmed with a passkey: admins and owners, when required. */
export const mustConfirmWithPasskey = (db: Queryable, role: Role): boolean =>
  (role === 'admin' || role === 'owner') && requirePasskeyForAdmins(db)

/**
 * Turns the requirement on or off. Turning it on needs a passkey of the owner's own, so the owner
 * who sets it cannot be the first one shut out (`cli admin require-passkey off` is the way back in).
 */
export function setRequirePasskeyForAdmins(db: Queryable, on: boolean, ownerId: number | null, now: Date): boolean {
  if (on && ownerId !== null && countPasskeys(db, ownerId) === 0)
    throw new DomainError('PASSKEY_NEEDED_FIRST', 409, 'Add a passkey to your own account first: the requirement applies to owners too.')
  const value = on ? '1' : '0'
  const updatedAt = formatTime(now)
  db.insert(settings).values({ key: KEY, value, updatedAt }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt } }).run()
  return on
}
