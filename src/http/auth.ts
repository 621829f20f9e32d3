import { Elysia, type DocumentDecoration } from 'elysia'
import { type DomainError, Forbidden, Unauthorized } from '../shared/errors.ts'
import type { Scope } from '../modules/tokens/scopes.ts'
import type { Caller } from '../modules/tokens/tokens.ts'
import { callOf } from './call.ts'

/** Refuses a call without a valid token (401) or without the scope (403), as spec §5.7 says. */
export function requireScope(request: Request, scope: Scope): Caller {
  const call = callOf(request)
  call.requiredScope = scope
  if (!call.caller) throw new Unauthorized(call.tokenPresented ? 'Invalid or revoked API token.' : 'Missing API token.')
  if (!call.caller.scopes.has(scope)) throw new Forbidden(scope)
  return call.caller
}

const noteScope = (request: Request, scope: Scope) => {
  callOf(request).requiredScope = scope
}

/**
 * `{ scope: 'blog:write' }` on a route guards it and hands the handler its `caller`. Routes
 * without the option stay anonymous (a token there is only used for logging). Elysia parses and
 * validates before `resolve`, so the parse and transform hooks note the scope first and the
 * error mapping answers an unauthorized call with 401/403 before any 400 about its input.
 */
export const auth = new Elysia({ name: 'folio.auth' }).macro({
  scope: (scope: Scope) => ({
    // The OpenAPI document reads the scope from here (security, 401/403 answers).
    detail: { 'x-required-scope': scope } as DocumentDecoration,
    parse: ({ request }) => noteScope(request, scope),
    transform: ({ request }) => noteScope(request, scope),
    resolve: ({ request }) => ({ caller: requireScope(request, scope) }),
  }),
})

/** The 401/403 a call deserves if its route needs a scope the caller lacks, else null. */
export function authorizationFailure(request: Request): DomainError | null {
  const scope = callOf(request).requiredScope as Scope | null
  if (!scope) return null
  try {
    requireScope(request, scope)
    return null
  } catch (error) {
    return error as DomainError
  }
}
