import type { Caller } from '../modules/tokens/tokens.ts'

/** What the HTTP shell learns about one call: who made it, what it needed, how it ended. */
export interface Call {
  requestId: string
  ip: string
  tokenPresented: boolean
  caller: Caller | null
  requiredScope: string | null
  code: string | null
  message: string | null
}

// Keyed by the Request itself, so the outer shell and Elysia's handlers share one record per call.
const calls = new WeakMap<Request, Call>()

export const attachCall = (request: Request, call: Call): void => void calls.set(request, call)

export function callOf(request: Request): Call {
  let call = calls.get(request)
  if (!call) {
    call = { requestId: crypto.randomUUID(), ip: '', tokenPresented: false, caller: null, requiredScope: null, code: null, message: null }
    calls.set(request, call)
  }
  return call
}

/** The token from `Authorization: Bearer …` or `X-API-Token` (spec §5.3). */
export function presentedToken(headers: Headers): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')
  return bearer?.[1] ?? (headers.get('x-api-token')?.trim() || null)
}
