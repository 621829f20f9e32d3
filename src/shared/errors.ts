/** A field at fault and why: the `data.errors` entries of a 400. */
export interface FieldError {
  field: string
  message: string
}

/**
 * Domain errors carry the spec's business code and HTTP status; the HTTP layer maps them
 * to the envelope once (http/envelope.ts), so verbs never build responses.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly data: unknown = null,
    /** Headers the answer carries (`Retry-After` of a 503). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }
}

export class ValidationFailed extends DomainError {
  constructor(errors: FieldError[], code = 'VALIDATION_FAILED') {
    super(code, 400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors })
  }
}

export const invalidField = (field: string, message: string, code?: string) => new ValidationFailed([{ field, message }], code)

/** The spec answers a non-existent public or named resource with a 400 business error (§7). */
export class NotFound extends DomainError {
  constructor(what: string, ref: string | number, field = 'id') {
    super('BLOG_NOT_FOUND', 400, `No ${what} ${typeof ref === 'number' ? ref : `"${ref}"`}.`, {
      errors: [{ field, message: `no such ${what}` }],
    })
  }
}

export class Unauthorized extends DomainError {
  constructor(message = 'Missing or invalid API token.', headers: Readonly<Record<string, string>> = {}) {
    super('UNAUTHORIZED', 401, message, null, headers)
  }
}

export class Forbidden extends DomainError {
  constructor(scope: string) {
    super('FORBIDDEN', 403, `This token lacks the scope ${scope}.`, { requiredScope: scope })
  }
}

/**
 * The data folder's disk is full (SQLite's SQLITE_FULL, or ENOSPC from a file write on the way):
 * a clear 503 the client may retry later, never a 500. Looked up along the `cause` chain, since
 * drivers wrap the error they got.
 */
export function isStorageFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code } = e as { code?: unknown }
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return true
    if (e instanceof Error && /database or disk is full/i.test(e.message)) return true
  }
  return false
}
/** Why the service (or a CLI command) cannot start: printed as one line, never a stack trace. */
export class StartupError extends Error {}
/** An `Idempotency-Key` sent again with a different request (docs/agents.md). */
export class IdempotencyKeyReused extends DomainError {
  constructor() {
    super(
      'IDEMPOTENCY_KEY_REUSED',
      422,
      'This Idempotency-Key was used for a different request (method, path or body); send a new key for a new request.',
      { errors: [{ field: 'Idempotency-Key', message: 'already used for a different request' }] },
    )
  }
}

/** An `Idempotency-Key` whose first request has not answered yet. */
export class IdempotencyKeyInUse extends DomainError {
  constructor() {
    super('IDEMPOTENCY_KEY_IN_USE', 409, 'A request with this Idempotency-Key is still running; retry once it has answered.', {
      errors: [{ field: 'Idempotency-Key', message: 'in use by a running request' }],
    })
  }
}
