import { XmlWriter, xmlDocument } from './xml.ts'

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9'
export const XHTML_NS = 'http://www.w3.org/1999/xhtml'
export const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1'

export interface SitemapAlternate {
  hreflang: string
  href: string
}

export interface SitemapEntry {
  loc: string
  /** W3C datetime, e.g. 2026-03-01T10:00:00Z; empty leaves it out (pages without one change time). */
  lastmod: string
  /** hreflang alternates of a translated pair, the entry's own language included; empty when unpaired. */
  alternates: readonly SitemapAlternate[]
  /** Image locations of the page (the site's covers); the image namespace is declared only when some entry has one. */
  images?: readonly string[]
}

export interface SitemapRef {
  loc: string
  lastmod: string
}

/** A `urlset` (sitemaps.org 0.9) with `xhtml:link rel="alternate"` hreflang annotations. */
export function renderUrlset(entries: readonly SitemapEntry[]): string {
  const images = entries.some((e) => e.images?.length) ? IMAGE_NS : undefined
  const out = new XmlWriter().open('urlset', { xmlns: SITEMAP_NS, 'xmlns:xhtml': XHTML_NS, 'xmlns:image': images })
  for (const entry of entries) {
    out.open('url').text('loc', entry.loc)
    if (entry.lastmod) out.text('lastmod', entry.lastmod)
    for (const a of entry.alternates) out.empty('xhtml:link', { rel: 'alternate', hreflang: a.hreflang, href: a.href })
    for (const loc of entry.images ?? []) out.open('image:image').text('image:loc', loc).close('image:image')
    out.close('url')
  }
  return xmlDocument(out.close('urlset'))
}

/** A `sitemapindex` pointing at the shards. */
export function renderSitemapIndex(shards: readonly SitemapRef[]): string {
  const out = new XmlWriter().open('sitemapindex', { xmlns: SITEMAP_NS })
  for (const s of shards) out.open('sitemap').text('loc', s.loc).text('lastmod', s.lastmod).close('sitemap')
  return xmlDocument(out.close('sitemapindex'))
}

/** The spec's `YYYY-MM-DD HH:mm:ss` (UTC) as a W3C datetime. */
export const w3cTime = (time: string): string => `${time.replace(' ', 'T')}Z`
