/** A refusal from the server, in the envelope's words. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly data: unknown,
  ) {
    super(message)
  }
}

/**
 * The console's one way to the server: the same routes and envelope as any API client, with the
 * session cookie (same origin) in place of a token. The browser adds Origin and Sec-Fetch-Site,
 * which the server checks on every write.
 */
export async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const sendsForm = body instanceof FormData
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined || sendsForm ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined || sendsForm ? (body as FormData | undefined) : JSON.stringify(body),
  })
  let envelope: { code: string; message: string; data: T }
  try {
    envelope = await response.json()
  } catch {
    throw new ApiError('BAD_ANSWER', `HTTP ${response.status}`, response.status, null)
  }
  if (envelope.code !== '0000' && !(path === '/healthz' && envelope.code === 'DEGRADED'))
    throw new ApiError(envelope.code, envelope.message, response.status, envelope.data)
  return envelope.data
}

export interface Me {
  user: { id: number; name: string; email: string; role: string; scopes: string[] }
  siteUrl: string
  siteUrlWarning: string | null
}

export interface Page<T> {
  total: number
  size: number
  current: number
  records: T[]
}
