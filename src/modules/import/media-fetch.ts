import type { UploadInput } from '../media/upload.ts'
import { parseIp } from '../../shared/ip.ts'
import { pinnedUrl, resolveReceiver } from '../webhooks/address.ts'

/** Per image: the whole download (connect, headers, body) must finish in this time. */
const FETCH_TIMEOUT_MS = 15_000

export interface MediaFetchDeps {
  /** The upload path (media/routes.ts `mediaUploader`): it bounds the size and checks the bytes are an image. */
  upload: (file: UploadInput) => Promise<string>
  allowPrivate: boolean
}

/**
 * `--media fetch`: downloads an image of the source site into Folio's media store and gives its
 * new URL. Only public addresses, under the webhook SSRF rule (webhooks/address.ts: the name is
 * resolved once, every address vetted, the connection pinned to it), no redirects followed, a time
 * limit, and the upload path's size limit and byte check. A failure keeps the old URL with a note.
 * One download per URL per run.
 */
export function mediaFetcher(deps: MediaFetchDeps) {
  const done = new Map<string, Promise<string>>()
  const download = async (raw: string): Promise<string> => {
    const url = new URL(raw)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not an http(s) URL')
    const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS)
    const target = await resolveReceiver(url, deps.allowPrivate).catch((e: Error) => {
      throw new Error(e.message.replace(/ \(set WEBHOOK_ALLOW_PRIVATE=1 to allow\)/, ''))
    })
    const response = await fetch(pinnedUrl(url, target), {
      signal,
      redirect: 'manual',
      tls: parseIp(url.hostname) ? undefined : { serverName: url.hostname },
      headers: { Host: url.host, Accept: 'image/*' },
    })
    if (!response.ok || !response.body) throw new Error(`answered ${response.status}`)
    const size = Number(response.headers.get('content-length') ?? NaN)
    return deps.upload({ stream: response.body, size: Number.isFinite(size) ? size : null })
  }
  return async (url: string, notes: string[]): Promise<string> => {
    if (!/^https?:\/\//i.test(url)) return url
    if (!done.has(url)) done.set(url, download(url))
    try {
      return await done.get(url)!
    } catch (error) {
      notes.push(`image not fetched (${(error as Error).message.slice(0, 200)}): ${url.slice(0, 200)}`)
      return url
    }
  }
}

export type FetchMedia = ReturnType<typeof mediaFetcher>

const IMG_SRC = /(<img\b[^<>]{0,4000}?\bsrc\s{0,10}=\s{0,10}["'])([^"']{1,2000})(["'])/gi

/** A body with every `<img src>` fetched and replaced (one scan to find them, one to replace). */
export async function fetchBodyImages(html: string, fetchMedia: FetchMedia, notes: string[]): Promise<string> {
  const urls = new Set<string>()
  for (const m of html.matchAll(IMG_SRC)) urls.add(m[2]!.replaceAll('&amp;', '&'))
  const moved = new Map<string, string>()
  for (const url of urls) moved.set(url, await fetchMedia(url, notes))
  return html.replace(IMG_SRC, (whole, open: string, src: string, close: string) => {
    const to = moved.get(src.replaceAll('&amp;', '&'))
    return to && to !== src ? `${open}${to}${close}` : whole
  })
}
