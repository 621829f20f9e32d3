import { DomainError } from '../../shared/errors.ts'

/** Why an upload was refused; the HTTP layer maps every one to 400 in the envelope. */
export type MediaRejectCode = 'MEDIA_UNSUPPORTED_TYPE' | 'MEDIA_TOO_LARGE' | 'MEDIA_EMPTY' | 'MEDIA_CORRUPT' | 'MEDIA_TOO_MANY_PIXELS'

/** Extra facts for the envelope's `data`, so a client can correct its request. */
export interface MediaRejectData {
  field: 'file'
  acceptedTypes?: readonly string[]
  maxBytes?: number
  size?: number
  maxPixels?: number
  width?: number
  height?: number
}

/** An upload the service will not store: a 400 whose envelope names the part at fault. */
export class MediaRejected extends DomainError {
  override readonly name = 'MediaRejected'
  readonly field = 'file' as const

  constructor(
    override readonly code: MediaRejectCode,
    message: string,
    readonly details: MediaRejectData = { field: 'file' },
  ) {
    super(code, 400, message, { ...details, errors: [{ field: 'file', message }] })
  }
}

/** A key that could escape the media root or that we would never have generated. */
export class InvalidMediaKey extends Error {
  override readonly name = 'InvalidMediaKey'

  constructor(readonly key: string) {
    super(`invalid media key: ${JSON.stringify(key.slice(0, 200))}`)
  }
}
