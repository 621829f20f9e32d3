import { analyseBody } from './html/document.ts'
import type { SeoInput } from './types.ts'
import { parseUrl } from './text/urls.ts'

const NEVER_SERVED = new Set(['data:', 'blob:', 'file:', 'javascript:'])
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::1]'])

/** A media reference turned into the absolute URL a browser would fetch (§4 usable media URL), or null. */
export function resolveMediaUrl(raw: string, siteUrl: string): URL | null {
  const trimmed = raw.trim()
  if (trimmed === '') return null
  if (trimmed.startsWith('//')) return parseUrl(`https:${trimmed}`)
  if (trimmed.startsWith('/')) return parseUrl(trimmed, siteUrl)
  return parseUrl(trimmed)
}

/** The media-store key of a URL under MEDIA_URL (no leading slash), or null when it is not under it. */
export function mediaKey(url: URL, mediaUrl: string): string | null {
  const media = parseUrl(mediaUrl)
  if (!media || url.origin !== media.origin) return null
  const prefix = media.pathname.endsWith('/') ? media.pathname : `${media.pathname}/`
  if (!url.pathname.startsWith(prefix) || url.pathname.length === prefix.length) return null
  const key = url.pathname.slice(prefix.length)
  try {
    return decodeURIComponent(key)
  } catch {
    return key
  }
}

export interface MediaSite {
  siteUrl: string
  mediaUrl: string
  mediaKeys: ReadonlySet<string>
}

/** §4 "usable media URL": served over https (or http like the site), not local, and present in the media store. */
export function isUsableMediaUrl(raw: string, site: MediaSite): boolean {
  const url = resolveMediaUrl(raw, site.siteUrl)
  const siteUrl = parseUrl(site.siteUrl)
  if (!url || NEVER_SERVED.has(url.protocol)) return false
  const allowedSchemes = siteUrl?.protocol === 'http:' ? ['https:', 'http:'] : ['https:']
  if (!allowedSchemes.includes(url.protocol)) return false
  const host = url.hostname.toLowerCase()
  const local = LOCAL_HOSTS.has(host) || host.endsWith('.local') || host.endsWith('.localhost')
  if (local && host !== siteUrl?.hostname.toLowerCase()) return false
  const key = mediaKey(url, site.mediaUrl)
  return key === null || site.mediaKeys.has(key)
}

/** The cover, OG image and body media URLs, as broken_media_url judges them; `field` is where each sits. */
export function mediaReferences(input: SeoInput, bodyMediaUrls: readonly string[]): { url: string; field: string }[] {
  const refs: { url: string; field: string }[] = []
  if (input.coverImage?.trim()) refs.push({ url: input.coverImage, field: 'coverImage' })
  if (input.ogImage?.trim()) refs.push({ url: input.ogImage, field: 'ogImage' })
  for (const url of bodyMediaUrls) refs.push({ url, field: 'contentHtml' })
  return refs
}

/**
 * Keys under MEDIA_URL that broken_media_url will look up, so the caller can prefetch them from a
 * remote store. Root-relative URLs are resolved against MEDIA_URL's origin: when the site and the
 * media share a host that is exactly the check's resolution, otherwise it only adds a harmless extra key.
 */
export function mediaKeysOf(input: SeoInput, mediaUrl: string): string[] {
  const { mediaUrls } = analyseBody(typeof input.contentHtml === 'string' ? input.contentHtml : '')
  const keys = new Set<string>()
  for (const { url } of mediaReferences(input, mediaUrls)) {
    const resolved = resolveMediaUrl(url, mediaUrl)
    const key = resolved && mediaKey(resolved, mediaUrl)
    if (key) keys.add(key)
  }
  return [...keys]
}
