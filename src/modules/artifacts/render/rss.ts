import { el, escapeXml, xmlDocument } from './xml.ts'

export const ATOM_NS = 'http://www.w3.org/2005/Atom'
/** RSS 2.0 modules every reader knows: the full body, the item's author by name, the cover as Media RSS. */
const CONTENT_NS = 'http://purl.org/rss/1.0/modules/content/'
const DC_NS = 'http://purl.org/dc/elements/1.1/'
const MEDIA_NS = 'http://search.yahoo.com/mrss/'

export interface RssChannel {
  title: string
  /** The site's page for this feed's posts. */
  link: string
  description: string
  /** RSS language code, e.g. `en` or `zh-CN`. */
  language: string
  /** Where the feed itself is served (`atom:link rel="self"`). */
  selfUrl: string
  /** The WebSub hub readers may subscribe at (`atom:link rel="hub"`, docs/discovery.md), when one is configured. */
  hubUrl?: string | null
}

export interface RssItem {
  title: string
  link: string
  /** Stable across slug changes and unique across installs (a tag URI), so readers never see a post twice. */
  guid: string
  pubDate: Date
  /** Plain text (the post's summary), never markup. */
  description: string
  /** The post's sanitized body (`content:encoded`); escaped here like any text. */
  contentHtml: string
  /** The author's name (`dc:creator`: RSS's own `author` wants an e-mail address). */
  creator: string
  /** The cover image's absolute URL and type, as Media RSS content, and an `enclosure` when its size is known; null when none. */
  image: { url: string; type: string; alt: string; size?: number | null } | null
  categories: readonly string[]
}

/** RFC 822 date as RSS 2.0 wants it; `toUTCString` yields `Sun, 01 Mar 2026 10:00:00 GMT`. */
export const rfc822 = (date: Date): string => date.toUTCString()

function rssItem(item: RssItem) {
  return el(
    'item',
    {},
    el('title', {}, item.title),
    el('link', {}, item.link),
    el('guid', { isPermaLink: 'false' }, item.guid),
    el('pubDate', {}, rfc822(item.pubDate)),
    item.creator ? el('dc:creator', {}, item.creator) : undefined,
    // Readers decode a description and render it as HTML: escaping the text for HTML first
    // (then for XML, by `el`) makes them show a summary like "<img onerror=…>" as the text it is.
    el('description', {}, escapeXml(item.description)),
    el('content:encoded', {}, item.contentHtml),
    item.image
      ? el(
          'media:content',
          { url: item.image.url, medium: 'image', type: item.image.type || undefined },
          item.image.alt ? el('media:description', { type: 'plain' }, item.image.alt) : undefined,
        )
      : undefined,
    item.image?.size != null ? el('enclosure', { url: item.image.url, length: String(item.image.size), type: item.image.type }) : undefined,
    ...item.categories.map((c) => el('category', {}, c)),
  )
}

/**
 * An RSS 2.0 feed. `lastBuildDate` is the newest item's date, never "now": the bytes depend only
 * on the content, so an unchanged feed keeps its ETag and a rebuild reproduces it exactly.
 */
export function renderRss(channel: RssChannel, items: readonly RssItem[]): string {
  const newest = items[0]?.pubDate
  return xmlDocument(
    el(
      'rss',
      { version: '2.0', 'xmlns:atom': ATOM_NS, 'xmlns:content': CONTENT_NS, 'xmlns:dc': DC_NS, 'xmlns:media': MEDIA_NS },
      el(
        'channel',
        {},
        el('title', {}, channel.title),
        el('link', {}, channel.link),
        el('description', {}, channel.description),
        el('language', {}, channel.language),
        el('atom:link', { href: channel.selfUrl, rel: 'self', type: 'application/rss+xml' }),
        channel.hubUrl ? el('atom:link', { href: channel.hubUrl, rel: 'hub' }) : undefined,
        newest ? el('lastBuildDate', {}, rfc822(newest)) : undefined,
        ...items.map(rssItem),
      ),
    ),
  )
}
