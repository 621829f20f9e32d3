import type { Ctx } from '../../context.ts'
import { callOf } from '../../http/call.ts'
import { cookieValue, sessionCookie, type CookiePolicy } from '../../http/session.ts'
import { recordAudit } from './audit.ts'
import { endSession, sessionOf, startSession } from './sessions.ts'

/** What every way of signing in shares (password, passkey, setup): the new session and the audit row. */
export function createSignIn(ctx: Ctx, cookie: CookiePolicy) {
  return {
    /** Records a sign-in event by name (who is not signed in yet, so the HTTP shell cannot). */
    audit(request: Request, userId: number | null, action: string, target = '', status = 200): void {
      recordAudit(ctx.db, { userId, action, target, status, ip: callOf(request).ip }, ctx.clock())
    },
    /** Ends whatever session the request carried and hands the browser a new one: a planted id is worthless. */
    start(request: Request, set: { headers: Record<string, unknown> }, userId: number): void {
      const old = cookieValue(request.headers, cookie.name)
      const previous = old ? sessionOf(ctx.db, old, ctx.clock()) : null
      if (previous) endSession(ctx.db, previous.sessionId)
      const where = { ip: callOf(request).ip, userAgent: request.headers.get('user-agent') ?? '' }
      set.headers['set-cookie'] = sessionCookie(cookie, startSession(ctx.db, userId, where, ctx.clock()))
    },
  }
}
export type SignIn = ReturnType<typeof createSignIn>
