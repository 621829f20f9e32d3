import { t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { callOf } from '../../http/call.ts'
import { IdParam } from '../../http/schema.ts'
import { clearedCookie, type CookiePolicy } from '../../http/session.ts'
import { DomainError, Unauthorized } from '../../shared/errors.ts'
import { askForPasskey } from './second-factor.ts'
import { mustConfirmWithPasskey } from './passkey-policy.ts'
import type { Passkeys } from './passkeys.ts'
import { MAX_PASSWORD_LENGTH, passwordMatches } from './passwords.ts'
import { canManage, ROLE_SCOPES, ROLES, type Role } from './roles.ts'
import { completeSetup, checkSetupCode } from './setup.ts'
import { endAllSessions, endOwnSession, endSession, listSessions, type SessionUser } from './sessions.ts'
import type { SignIn } from './sign-in.ts'
import type { SignInThrottle } from './throttle.ts'
import { createUser, disableUser, findUser, listUsers, userByEmail } from './users.ts'

export const Email = t.String({ minLength: 1, maxLength: 320 })
export const Password = t.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH })
const Name = t.String({ minLength: 1, maxLength: 100 })
// Empty is let through to be refused as the wrong code, in the same words.
const SetupCode = t.String({ maxLength: 100 })

/** The signed-in person behind this call, or 401: console routes take no token. */
export function signedIn(request: Request): SessionUser {
  const session = callOf(request).caller?.session
  if (!session) throw new Unauthorized('Sign in to the console first.')
  return session
}

/** Whether the public site URL is one an owner should fix before publishing (docs/admin.md). */
const siteUrlWarning = (siteUrl: string): string | null => {
  const url = new URL(siteUrl)
  if (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return 'SITE_URL names this machine (localhost): readers cannot reach it.'
  if (url.protocol !== 'https:') return 'SITE_URL is not https: browsers will mark the site as not secure.'
  return null
}

/**
 * Sign-in, sessions, first-run setup and people (docs/admin.md). Every answer that starts a
 * session makes a new one, so a session id planted before sign-in is worthless (no fixation).
 */
export const peopleRoutes = (ctx: Ctx, throttle: SignInThrottle, cookie: CookiePolicy, signInBy: SignIn, passkeys: Passkeys) => {
  const { audit, start: signIn } = signInBy
  const me = (session: SessionUser) => ({
    id: session.userId,
    name: session.name,
    email: session.email,
    role: session.role,
    scopes: [...ROLE_SCOPES[session.role]],
  })

  return adminRoutes('people.console', '/admin/api')
    .get('/me', ({ request }) => ({
      user: me(signedIn(request)),
      siteUrl: ctx.config.siteUrl,
      siteUrlWarning: siteUrlWarning(ctx.config.siteUrl),
    }))
    .get(
      '/setup',
      ({ query }) => {
        checkSetupCode(ctx.db, query.code)
        return { siteUrl: ctx.config.siteUrl, siteUrlWarning: siteUrlWarning(ctx.config.siteUrl) }
      },
      { query: t.Object({ code: SetupCode }) },
    )
    .post(
      '/setup',
      async ({ body, request, set }) => {
        const owner = await completeSetup(ctx, body)
        audit(request, owner.id, 'setup', `user ${owner.id}`)
        signIn(request, set, owner.id)
        return { id: owner.id, name: owner.name, role: owner.role }
      },
      { body: t.Object({ code: SetupCode, nameEn: Name, nameZh: Name, ownerName: Name, email: Email, password: Password }) },
    )
    .post(
      '/sign-in',
      async ({ body, request, set }) => {
        const { ip } = callOf(request)
        throttle.check(body.email, ip)
        const user = userByEmail(ctx.db, body.email)
        const ok = await passwordMatches(body.password, user?.passwordHash ?? null)
        if (!ok || !user || user.disabledAt !== null) {
          throttle.failed(body.email, ip)
          audit(request, user?.id ?? null, 'sign-in failed', body.email.slice(0, 100), 401)
          throw new DomainError('SIGN_IN_FAILED', 401, 'Wrong email or password (or the account is disabled).')
        }
        throttle.succeeded(body.email)
        if (mustConfirmWithPasskey(ctx.db, user.role as Role)) return askForPasskey(ctx.db, passkeys, request, user, signInBy)
        signIn(request, set, user.id)
        audit(request, user.id, 'sign-in')
        return { id: user.id, name: user.name, role: user.role }
      },
      { body: t.Object({ email: Email, password: Password }) },
    )
    .post('/sign-out', ({ request, set }) => {
      endSession(ctx.db, signedIn(request).sessionId)
      set.headers['set-cookie'] = clearedCookie(cookie)
      return true
    })
    .post('/sign-out-everywhere', ({ request, set }) => {
      endAllSessions(ctx.db, signedIn(request).userId)
      set.headers['set-cookie'] = clearedCookie(cookie)
      return true
    })
    .get('/sessions', ({ request }) => {
      const session = signedIn(request)
      return listSessions(ctx.db, session.userId).map((s) => ({ ...s, current: s.id === session.sessionId }))
    })
    .post('/sessions/:id/end', ({ request, params }) => endOwnSession(ctx.db, signedIn(request).userId, Number(params.id)), {
      params: t.Object({ id: IdParam }),
    })
    .get('/users', () => listUsers(ctx.db), { scope: 'blog:admin' })
    .post(
      '/users/save',
      ({ request, body }) => {
        const actor = signedIn(request)
        if (!canManage(actor.role, body.role as Role)) throw new ManageRefused()
        return createUser(ctx.db, body)
      },
      {
        scope: 'blog:admin',
        body: t.Object({ email: Email, name: Name, role: t.Union(ROLES.map((r) => t.Literal(r))), password: Password }),
      },
    )
    .post(
      '/users/:id/disable',
      ({ request, params }) => {
        const actor = signedIn(request)
        if (!canManage(actor.role, findUser(ctx.db, Number(params.id)).role)) throw new ManageRefused()
        return disableUser(ctx.db, Number(params.id), ctx.clock())
      },
      { scope: 'blog:admin', params: t.Object({ id: IdParam }) },
    )
}

class ManageRefused extends DomainError {
  constructor() {
    super('FORBIDDEN', 403, 'Only an owner manages owners.')
  }
}
