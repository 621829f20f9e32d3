import type { Ctx } from '../../context.ts'
import { cookiePolicy, sessionCaller } from '../../http/session.ts'
import type { Caller } from '../tokens/tokens.ts'
import { pruneAudit, recordAudit } from './audit.ts'
import { passkeyRoutes } from './passkey-routes.ts'
import { createPasskeys } from './passkeys.ts'
import { peopleRoutes } from './routes.ts'
import { pruneSessions } from './sessions.ts'
import { createSignIn } from './sign-in.ts'
import { createSignInThrottle } from './throttle.ts'

/** Writes between prunes of expired sessions and old audit rows. */
const PRUNE_EVERY = 500

/** The console's people side, wired once (main.ts): its routes, the session caller and the audit hook of the HTTP shell. */
export function createPeople(ctx: Ctx) {
  const cookie = cookiePolicy(ctx.config.siteUrl)
  const signIn = createSignIn(ctx, cookie)
  const passkeys = createPasskeys(ctx)
  // One count of failures for both ways in, so a guesser gains nothing by switching.
  const throttle = createSignInThrottle(ctx.clock)
  let sincePrune = PRUNE_EVERY
  return {
    routes: [peopleRoutes(ctx, throttle, cookie, signIn, passkeys), passkeyRoutes(ctx, passkeys, signIn, throttle)],
    sessionCaller: sessionCaller(ctx.db, ctx.clock, cookie),
    /** Every state-changing call a signed-in person makes: who, what (method and path), status, from where. */
    audit(caller: Caller, request: Request, status: number, ip: string): void {
      const now = ctx.clock()
      const action = `${request.method} ${new URL(request.url).pathname}`
      recordAudit(ctx.db, { userId: caller.session?.userId ?? null, action, status, ip }, now)
      if (++sincePrune >= PRUNE_EVERY) {
        sincePrune = 0
        pruneAudit(ctx.db, now)
        pruneSessions(ctx.db, now)
      }
    },
  }
}
