import { contentHash, mediaUrlFor, type S3MediaStore } from '../modules/media/index.ts'
import { StartupError } from '../shared/errors.ts'
import type { Logger } from '../shared/log.ts'

/** A 1x1 PNG: the object the check writes and reads back. */
const PROBE = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
)
/** Content-addressed and named for what it is, so it is written once and recognised in the bucket. */
export const PROBE_KEY = `folio-check/${contentHash(PROBE).slice(0, 32)}.png`
const TIMEOUT_MS = 5000

/**
 * With MEDIA_STORE=s3 the bucket (or a CDN in front of it) serves the media, at MEDIA_URL. A
 * MEDIA_URL that does not serve what was written there makes every upload a broken image, so
 * at start the server writes a probe object and reads it back through MEDIA_URL; null when it
 * came back, else why not.
 */
export async function mediaUrlProblem(store: S3MediaStore, mediaUrl: string): Promise<string | null> {
  await store.put(PROBE_KEY, PROBE, 'image/png')
  const url = mediaUrlFor(mediaUrl, PROBE_KEY)
  let answer: Response
  try {
    answer = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (error) {
    return `GET ${url} did not answer (${(error as Error).message})`
  }
  if (!answer.ok) return `GET ${url} answered HTTP ${answer.status}`
  const bytes = new Uint8Array(await answer.arrayBuffer())
  if (contentHash(bytes) !== contentHash(PROBE)) return `GET ${url} answered other bytes than the object written`
  return null
}

/** MEDIA_URL_CHECK: `refuse` stops the start with one line, `warn` logs it at error level, `off` skips the check. */
export async function checkMediaUrl(store: S3MediaStore, mediaUrl: string, mode: 'refuse' | 'warn' | 'off', log: Logger): Promise<void> {
  if (mode === 'off') return
  const problem = await mediaUrlProblem(store, mediaUrl)
  if (!problem) return
  const advice = `MEDIA_URL ${mediaUrl} does not serve the objects written to bucket "${store.bucket}": ${problem}; point MEDIA_URL at where they are served (the store itself serves this one at ${store.objectUrl(PROBE_KEY)})`
  if (mode === 'refuse') throw new StartupError(advice)
  log.error('media url check failed', { problem: advice })
}
