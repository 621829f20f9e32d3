import type { Queryable } from '../../db/client.ts'
import { DomainError } from '../../shared/errors.ts'
import { countPasskeys, type Passkeys } from './passkeys.ts'
import type { SignIn } from './sign-in.ts'

/** How an admin without a passkey gets one while the owner requires it (docs/admin.md, "Passkeys"). */
export const HOW_TO_GET_A_PASSKEY =
  'An owner requires admins to confirm sign-in with a passkey, and this account has none yet. ' +
  'Ask an owner to turn off "Require a passkey for admins" while you sign in and add one on the Account page ' +
  '(on the server: npm run --silent cli -- admin require-passkey off).'

/**
 * The password was right, and this account must confirm with a passkey: no session yet, only a
 * challenge its own passkeys can answer (POST /admin/api/passkeys/sign-in then signs it in).
 */
export async function askForPasskey(
  db: Queryable,
  passkeys: Passkeys,
  request: Request,
  user: { id: number; email: string },
  signIn: SignIn,
) {
  if (countPasskeys(db, user.id) === 0) {
    signIn.audit(request, user.id, 'sign-in refused: passkey required, none registered', user.email, 403)
    throw new DomainError('PASSKEY_REQUIRED', 403, HOW_TO_GET_A_PASSKEY)
  }
  const options = await passkeys.signInOptions(request.headers.get('origin'), user.id, true)
  signIn.audit(request, user.id, 'sign-in password ok: passkey asked', user.email)
  return { secondFactor: 'passkey' as const, options }
}
