/** The spec's `Result` envelope (§2.1). */
export interface Envelope<T = unknown> {
  code: string
  message: string
  data: T | null
}

export const OK = '0000'

/** The bytes of an envelope: the API's answers and the pre-rendered artifacts share this one serialization. */
export const envelopeBody = (envelope: Envelope): string => JSON.stringify(envelope)

export function envelopeResponse(envelope: Envelope, status = 200, headers: Record<string, string> = {}): Response {
  const response = new Response(envelopeBody(envelope), { status, headers })
  response.headers.set('content-type', 'application/json; charset=utf-8')
  return response
}

export const success = <T>(data: T): Envelope<T> => ({ code: OK, message: 'success', data })

/** A success that needs attention (artifacts not refreshed yet): the header, repeated in the envelope's message. */
export const WARNING_HEADER = 'folio-warning'
