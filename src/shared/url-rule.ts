import { invalidField } from './errors.ts'

/**
 * The one rule for every URL field a write accepts (posts, authors, categories, settings, webhook
 * receivers): links are absolute http(s); images follow the SEO catalogue's "usable media URL"
 * (seo-rules.md §4), which the broken_media_url rule reads through the same functions.
 *
 * Browsers drop tabs and newlines anywhere in a URL and controls/spaces at its ends before they
 * read the scheme, so `java\tscript:` and `\u0001javascript:` run as scripts; format characters
 * (zero-width, bidi overrides) hide what a URL says. A stored URL holds none of them, nor `"<>\``,
 * which a valid URL always percent-encodes: a URL pasted into a double-quoted attribute stays in it.
 */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\s\p{Cf}"<>`]/u
const HIDDEN_FAULT = 'contains control, format, whitespace or quote characters'

/** Schemes a browser fetches without a network request, or runs (catalogue: never `data: blob: file: javascript:`). */
const NEVER_SERVED = new Set(['data:', 'blob:', 'file:', 'javascript:'])
/** Catalogue: not local unless it is SITE_URL's own host. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::1]'])

/** Parses an absolute URL; null when it is not one (never throws). */
export function parseUrl(href: string, base?: string): URL | null {
  try {
    return new URL(href, base)
  } catch {
    return null
  }
}

/** Why `raw` is no usable link (an absolute http(s) URL), or null when it is one. */
export function linkFault(raw: string): string | null {
  const value = raw.trim()
  if (HIDDEN.test(value)) return HIDDEN_FAULT
  const url = parseUrl(value)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return 'expected an absolute http(s) URL'
  return null
}

/** A media reference turned into the absolute URL a browser would fetch: `//x` → `https://x`, `/x` against SITE_URL. */
export function resolveMediaUrl(raw: string, siteUrl: string): URL | null {
  const trimmed = raw.trim()
  if (trimmed === '') return null
  if (trimmed.startsWith('//')) return parseUrl(`https:${trimmed}`)
  if (trimmed.startsWith('/')) return parseUrl(trimmed, siteUrl)
  return parseUrl(trimmed)
}

/**
 * Why `raw` can never be a usable media URL, clause by clause of the catalogue, or null. The last
 * clause (an object under MEDIA_URL must exist) needs the store: see `mediaKey`.
 */
export function mediaFault(raw: string, siteUrl: string): string | null {
  const trimmed = raw.trim()
  if (trimmed === '') return 'empty'
  if (HIDDEN.test(trimmed)) return HIDDEN_FAULT
  const url = resolveMediaUrl(trimmed, siteUrl)
  if (!url) return 'expected an https URL, //host/path or /path'
  if (NEVER_SERVED.has(url.protocol)) return `${url.protocol} URLs are never served`
  const site = parseUrl(siteUrl)
  const schemes = site?.protocol === 'http:' ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol)) return site?.protocol === 'http:' ? 'expected an http(s) URL' : 'expected an https URL'
  const host = url.hostname.toLowerCase()
  const local = LOCAL_HOSTS.has(host) || host.endsWith('.local') || host.endsWith('.localhost')
  if (local && host !== site?.hostname.toLowerCase()) return `${host} is a local host`
  return null
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
}

/** A write's link field: blank (none) or an absolute http(s) URL; anything else is a 400 naming `field`. */
export function checkLink(field: string, raw: string | null | undefined): void {
  const fault = raw?.trim() ? linkFault(raw) : null
  if (fault) throw invalidField(field, fault)
}

/**
 * A post's image field at save: blank or a URL that could be usable. Whether its object exists is
 * the publish gate's question (broken_media_url), so a draft may name media it uploads next.
 */
export function checkMediaShape(field: string, raw: string | null | undefined, siteUrl: string): void {
  const fault = raw?.trim() ? mediaFault(raw, siteUrl) : null
  if (fault) throw invalidField(field, `not a usable media URL: ${fault}`)
}

/**
 * An image field without a publish gate (author avatar, publication icon): blank (none) or a
 * usable media URL, every clause of the catalogue including that an object under MEDIA_URL exists.
 */
export async function checkMedia(
  field: string,
  raw: string | null | undefined,
  site: MediaSite,
  exists: (key: string) => Promise<boolean>,
): Promise<void> {
  if (!raw?.trim()) return
  checkMediaShape(field, raw, site.siteUrl)
  const key = mediaKey(resolveMediaUrl(raw, site.siteUrl)!, site.mediaUrl)
  if (key !== null && !(await exists(key))) throw invalidField(field, `not a usable media URL: no media object ${key}`)
}
