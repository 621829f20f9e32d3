import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { callOf } from '../../http/call.ts'
import { IdParam } from '../../http/schema.ts'
import { DomainError } from '../../shared/errors.ts'
import { mustConfirmWithPasskey, requirePasskeyForAdmins, setRequirePasskeyForAdmins } from './passkey-policy.ts'
import { countPasskeys, listPasskeys, removePasskey, type Passkeys } from './passkeys.ts'
import { Email, Password, signedIn } from './routes.ts'
import type { SignIn } from './sign-in.ts'
import type { SignInThrottle } from './throttle.ts'
import { changePassword, userByEmail } from './users.ts'

const B64 = (maxLength: number) => t.String({ maxLength, pattern: '^[A-Za-z0-9_-]*={0,2}$' })
/** A browser's WebAuthn answer (RegistrationResponseJSON / AuthenticationResponseJSON), bounded field by field. */
const Credential = t.Object({
  id: B64(1400),
  rawId: B64(1400),
  type: t.Literal('public-key'),
  response: t.Object({
    clientDataJSON: B64(4096),
    attestationObject: t.Optional(B64(65_536)),
    authenticatorData: t.Optional(B64(65_536)),
    signature: t.Optional(B64(4096)),
    userHandle: t.Optional(B64(1400)),
    transports: t.Optional(t.Array(t.String({ maxLength: 20 }), { maxItems: 10 })),
    publicKeyAlgorithm: t.Optional(t.Integer()),
    publicKey: t.Optional(B64(4096)),
  }),
  clientExtensionResults: t.Object({}),
  authenticatorAttachment: t.Optional(t.String({ maxLength: 20 })),
})

const origin = (request: Request) => request.headers.get('origin')

/**
 * Passkeys (docs/admin.md, "Passkeys"): the account's own list, adding and removing one, signing in
 * with one (alone, by email, or to finish a password sign-in), the owner's requirement for admins,
 * and the password change. Signed-in writes are audited by the HTTP shell; sign-ins by name here.
 */
export const passkeyRoutes = (ctx: Ctx, passkeys: Passkeys, signIn: SignIn, throttle: SignInThrottle) =>
  adminRoutes('people.passkeys', '/admin/api')
    .get('/passkeys', ({ request }) => listPasskeys(ctx.db, signedIn(request).userId))
    .post('/passkeys/options', ({ request }) => passkeys.registrationOptions(signedIn(request), origin(request)))
    .post(
      '/passkeys/save',
      ({ request, body }) => passkeys.add(signedIn(request).userId, body.name, body.response as RegistrationResponseJSON, origin(request)),
      { body: t.Object({ name: t.String({ minLength: 1, maxLength: 60, pattern: '\\S' }), response: Credential }) },
    )
    .post(
      '/passkeys/:id/remove',
      ({ request, params }) => {
        const me = signedIn(request)
        if (mustConfirmWithPasskey(ctx.db, me.role) && countPasskeys(ctx.db, me.userId) <= 1)
          throw new DomainError('LAST_PASSKEY', 409, 'This is your last passkey and an owner requires one for admins: add another first.')
        return { removed: removePasskey(ctx.db, me.userId, Number(params.id)) }
      },
      { params: t.Object({ id: IdParam }) },
    )
    .post(
      '/passkeys/sign-in/options',
      ({ request, body }) => passkeys.signInOptions(origin(request), body.email ? (userByEmail(ctx.db, body.email)?.id ?? null) : null),
      { body: t.Object({ email: t.Optional(Email) }) },
    )
    .post(
      '/passkeys/sign-in',
      async ({ request, body, set }) => {
        const { ip } = callOf(request)
        throttle.check(null, ip)
        const proof = await passkeys.verifySignIn(body.response as AuthenticationResponseJSON, origin(request)).catch((error: unknown) => {
          throttle.failed(null, ip)
          signIn.audit(request, null, 'sign-in failed (passkey)', body.response.id.slice(0, 100), (error as DomainError).status ?? 400)
          throw error
        })
        const { user } = proof
        throttle.succeeded(user.email)
        signIn.start(request, set, user.id)
        signIn.audit(request, user.id, proof.secondFactor ? 'sign-in (password and passkey)' : 'sign-in (passkey)', proof.passkeyName)
        return { id: user.id, name: user.name, role: user.role }
      },
      { body: t.Object({ response: Credential }) },
    )
    .get('/security', () => ({ requirePasskeyForAdmins: requirePasskeyForAdmins(ctx.db) }), { scope: 'blog:admin' })
    .post(
      '/security',
      ({ request, body }) => {
        const me = signedIn(request)
        if (me.role !== 'owner') throw new DomainError('FORBIDDEN', 403, 'Only an owner sets who must sign in with a passkey.')
        return { requirePasskeyForAdmins: setRequirePasskeyForAdmins(ctx.db, body.requirePasskeyForAdmins, me.userId, ctx.clock()) }
      },
      { body: t.Object({ requirePasskeyForAdmins: t.Boolean() }) },
    )
    .post(
      '/password',
      async ({ request, body }) => {
        await changePassword(ctx.db, signedIn(request), body.current, body.password)
        return true
      },
      { body: t.Object({ current: Password, password: Password }) },
    )
