import { Elysia, type AnyElysia } from 'elysia'
import { DomainError, isStorageFull } from '../shared/errors.ts'
import type { Logger } from '../shared/log.ts'
import { authorizationFailure } from './auth.ts'
import { callOf } from './call.ts'
import { envelopeResponse, success, WARNING_HEADER, type Envelope } from './envelope.ts'
import { validationFields } from './errors.ts'

function respond(request: Request, envelope: Envelope, status: number, headers?: Record<string, string>): Response {
  const call = callOf(request)
  call.code = envelope.code
  call.message = envelope.message
  return envelopeResponse(envelope, status, headers)
}

/**
 * The last route: what answers a request no feature routes and that no other method of the same
 * path would answer (the public site's live pages and its HTML 404), or null for the envelope's 404.
 */
export type LastRoute = (request: Request) => Response | null

/**
 * The Elysia application: every feature plugin mounted under one error mapping, so each failure
 * becomes the spec's envelope exactly once, and plain handler results are wrapped as `0000`.
 */
export function createApp(log: Logger, features: readonly AnyElysia[], lastRoute?: LastRoute): AnyElysia {
  const app = new Elysia({ name: 'folio' })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      // Authorization outranks input errors: a caller without the scope learns nothing about the body.
      const denied = code === 'VALIDATION' || code === 'PARSE' ? authorizationFailure(request) : null
      if (denied) return respond(request, { code: denied.code, message: denied.message, data: denied.data }, denied.status)
      if (error instanceof DomainError)
        return respond(request, { code: error.code, message: error.message, data: error.data }, error.status, { ...error.headers })
      switch (code) {
        case 'VALIDATION': {
          const errors = validationFields(error)
          return respond(
            request,
            { code: 'VALIDATION_FAILED', message: errors.map((e) => `${e.field}: ${e.message}`).join('; '), data: { errors } },
            400,
          )
        }
        case 'PARSE':
          return respond(
            request,
            {
              code: 'INVALID_BODY',
              message: 'The request body could not be parsed (expected JSON).',
              data: { errors: [{ field: 'body', message: 'malformed body' }] },
            },
            400,
          )
        case 'NOT_FOUND': {
          const path = new URL(request.url).pathname
          const allowed = methodsOf(path)
          if (allowed.length) {
            const refused = respond(
              request,
              { code: 'METHOD_NOT_ALLOWED', message: `${path} answers ${allowed.join(', ')}, not ${request.method}.`, data: null },
              405,
            )
            refused.headers.set('allow', allowed.join(', '))
            return refused
          }
          const last = lastRoute?.(request)
          if (last) return last
          return respond(request, { code: 'NOT_FOUND', message: `No route ${request.method} ${path}.`, data: null }, 404)
        }
        case 'INVALID_COOKIE_SIGNATURE':
        case 'INVALID_FILE_TYPE':
          return respond(request, { code: 'INVALID_REQUEST', message: String((error as Error).message), data: null }, 400)
        default: {
          const { requestId } = callOf(request)
          if (isStorageFull(error)) {
            log.error('storage full', { requestId, method: request.method, path: new URL(request.url).pathname, error: String(error) })
            return respond(
              request,
              {
                code: 'STORAGE_FULL',
                message: `The data folder's disk is full; nothing was saved. Retry once space is freed (request id ${requestId}).`,
                data: { requestId },
              },
              503,
            )
          }
          log.error('unhandled error', {
            requestId,
            method: request.method,
            path: new URL(request.url).pathname,
            error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
          })
          return respond(
            request,
            { code: 'INTERNAL_ERROR', message: `Internal error; quote request id ${requestId}.`, data: { requestId } },
            500,
          )
        }
      }
    })
    .mapResponse({ as: 'global' }, ({ responseValue, request, set }) => {
      if (responseValue instanceof Response) return responseValue
      const status = typeof set.status === 'number' ? set.status : 200
      const warning = set.headers[WARNING_HEADER]
      const envelope = success(responseValue ?? null)
      const response = respond(request, warning ? { ...envelope, message: `success; warning: ${warning}` } : envelope, status)
      // Elysia appends `set-cookie` to the answer itself; copying it too would send the cookie twice.
      for (const [name, value] of Object.entries(set.headers))
        if (typeof value === 'string' && name !== 'set-cookie') response.headers.set(name, value)
      return response
    })
  for (const feature of features) app.use(feature)
  // The methods each path answers, for the 405 of a known path asked with another method (HEAD rides on GET).
  let routes: { pattern: RegExp; method: string }[] | null = null
  const methodsOf = (path: string): string[] => {
    routes ??= app.routes.map((route) => ({
      method: route.method,
      pattern: new RegExp(
        `^${route.path
          .replace(/\/$/, '')
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/:[^/]+/g, '[^/]+')
          .replace(/\*/g, '.*')}/?$`,
      ),
    }))
    const methods = new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods].sort()
  }
  return app
}
