import type { Config } from '../config.ts'
import { StartupError } from '../shared/errors.ts'
import { envelopeResponse } from './envelope.ts'
import { base64Length } from './server.ts'

/** The port is taken before anything else happens, so a taken port fails in one line, not after a migration. */
export function listen(config: Config, maxJsonBytes: number) {
  try {
    return Bun.serve({
      hostname: config.host,
      port: config.port,
      // Until the service is composed (migrations, pending renders) callers are asked to come back.
      fetch: () =>
        envelopeResponse({ code: 'SERVICE_STARTING', message: 'Folio is starting; retry in a moment.', data: null }, 503, {
          'retry-after': '1',
        }),
      // The shell refuses oversized bodies in the envelope; this is the hard stop behind it.
      maxRequestBodySize: base64Length(config.maxUploadBytes) + maxJsonBytes + 2 * 1024 * 1024,
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'EADDRINUSE'
        ? `port ${config.port} is already in use`
        : code === 'EADDRNOTAVAIL' || code === 'EINVAL'
          ? `HOST "${config.host}" is not an address of this machine`
          : code === 'EACCES'
            ? `permission denied (ports below 1024 need privileges)`
            : (error as Error).message
    throw new StartupError(`cannot listen on ${config.host}:${config.port}: ${why}`)
  }
}
