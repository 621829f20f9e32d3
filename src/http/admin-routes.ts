import { Elysia } from 'elysia'
import { auth } from './auth.ts'

/**
 * A group of admin-area routes (`/api/admin/…`, `/admin/api/…`): named so it registers once, under
 * one prefix, with the `scope` option of http/auth.ts (a token's scopes or a session's role), and
 * answered `Cache-Control: no-store` (drafts, emails, IPs). Cross-site writes on a session are
 * refused by the HTTP shell before any route runs (http/session.ts `crossSite`), and the shell
 * sets `private, no-store` on every admin path as well, so a route missed here still leaks nothing.
 */
export const adminRoutes = (name: string, prefix = '') =>
  new Elysia({ name, prefix }).use(auth).onAfterHandle(({ set }) => {
    set.headers['cache-control'] = 'no-store'
  })
