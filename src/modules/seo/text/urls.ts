import { parseUrl } from '../../../shared/url-rule.ts'

/** Hosts compare without a leading `www.` (§2 links, citations). */
export const hostKey = (host: string): string => host.toLowerCase().replace(/^www\./, '')

const SCHEME = /^[a-z][a-z0-9+.-]*:/i
const NOT_A_PAGE = /^(?:#|mailto:|tel:|javascript:)/i

export type LinkKind = 'internal' | 'external' | 'other'

export interface LinkClass {
  kind: LinkKind
  /** Host without `www.`, '' when the link does not resolve. */
  host: string
}

/** Same page regardless of fragment and trailing slash. */
const pageKey = (url: URL): string => `${url.protocol}//${hostKey(url.host)}${url.pathname.replace(/\/+$/, '')}${url.search}`

/**
 * §2 link classes. Internal: relative or on the site host, but not a fragment, mailto/tel/javascript
 * or the post's own URL. External: absolute http(s) on another host.
 */
export function classifyLink(href: string, siteUrl: string, selfUrl: string): LinkClass {
  const trimmed = href.trim()
  const other: LinkClass = { kind: 'other', host: '' }
  if (trimmed === '' || NOT_A_PAGE.test(trimmed)) return other
  const relative = !SCHEME.test(trimmed) && !trimmed.startsWith('//')
  const url = parseUrl(trimmed.startsWith('//') ? `https:${trimmed}` : trimmed, selfUrl)
  if (!url) return other
  const host = hostKey(url.host)
  const self = parseUrl(selfUrl)
  if (self && pageKey(url) === pageKey(self)) return { kind: 'other', host }
  const site = parseUrl(siteUrl)
  if (relative || (site && host === hostKey(site.host))) return { kind: 'internal', host }
  return { kind: url.protocol === 'http:' || url.protocol === 'https:' ? 'external' : 'other', host }
}
