import { describe, expect, test } from 'bun:test'
import { xml2js, type Element } from 'xml-js'
import { escapeXml } from '../../src/modules/artifacts/render/xml.ts'
import { renderRobots } from '../../src/modules/artifacts/render/robots.ts'
import { renderRss, rfc822 } from '../../src/modules/artifacts/render/rss.ts'
import { renderSitemapIndex, renderUrlset, SITEMAP_NS, XHTML_NS } from '../../src/modules/artifacts/render/sitemap.ts'

const parse = (xml: string) => xml2js(xml, { compact: false }) as Element
const child = (e: Element | undefined, name: string) => e?.elements?.find((c) => c.name === name)
const children = (e: Element | undefined, name: string) => e?.elements?.filter((c) => c.name === name) ?? []
const text = (e: Element | undefined) => (e?.elements?.[0]?.text ?? e?.elements?.[0]?.cdata ?? '') as string

const RFC822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/

describe('XML escaping', () => {
  test('escapes markup characters and drops characters XML 1.0 forbids', () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;')
    expect(escapeXml('bell\u0007 tab\t ok\uFFFE \uD800lone')).toBe('bell tab\t ok lone')
  })
})

describe('RSS 2.0', () => {
  const channel = {
    title: 'Blog & <news>',
    link: 'https://example.org/en/blog',
    description: 'Latest',
    language: 'en',
    selfUrl: 'https://example.org/api/v1/blog/rss.xml?language=en',
  }
  const items = [
    {
      title: 'Fish & "chips" <b>',
      link: 'https://example.org/en/blog/fish',
      guid: 'folio-post-2',
      pubDate: new Date(Date.UTC(2026, 2, 1, 10, 0, 0)),
      description: 'A summary with ]]> and </description>',
      contentHtml: '<p>Body ]]> <b>bold</b></p>',
      creator: 'Jane',
      image: { url: 'https://example.org/media/fish.png', type: 'image/png', alt: 'A fish' },
      categories: ['Guides', 'Food'],
    },
    {
      title: 'Older',
      link: 'https://example.org/en/blog/older',
      guid: 'folio-post-1',
      pubDate: new Date(Date.UTC(2026, 0, 1)),
      description: '',
      contentHtml: '',
      creator: '',
      image: null,
      categories: [],
    },
  ]

  test('is a valid RSS 2.0 document with atom:link self, guid, RFC 822 dates and categories', () => {
    const doc = parse(renderRss(channel, items))
    const rss = child(doc, 'rss')!
    expect(rss.attributes).toMatchObject({ version: '2.0', 'xmlns:atom': 'http://www.w3.org/2005/Atom' })
    const ch = child(rss, 'channel')!
    for (const required of ['title', 'link', 'description']) expect(child(ch, required)).toBeDefined()
    expect(text(child(ch, 'title'))).toBe('Blog & <news>')
    expect(child(ch, 'atom:link')!.attributes).toEqual({ href: channel.selfUrl, rel: 'self', type: 'application/rss+xml' })
    expect(text(child(ch, 'lastBuildDate'))).toBe(rfc822(items[0]!.pubDate))
    const parsed = children(ch, 'item')
    expect(parsed).toHaveLength(2)
    const first = parsed[0]!
    expect(text(child(first, 'title'))).toBe('Fish & "chips" <b>')
    // Readers render a description as HTML: it carries the summary as HTML text, never as markup.
    expect(text(child(first, 'description'))).toBe('A summary with ]]&gt; and &lt;/description&gt;')
    expect(child(first, 'guid')!.attributes).toEqual({ isPermaLink: 'false' })
    expect(text(child(first, 'guid'))).toBe('folio-post-2')
    expect(text(child(first, 'pubDate'))).toMatch(RFC822)
    expect(children(first, 'category').map(text)).toEqual(['Guides', 'Food'])
    expect(text(child(first, 'content:encoded'))).toBe('<p>Body ]]> <b>bold</b></p>')
    expect(text(child(first, 'dc:creator'))).toBe('Jane')
    expect(child(first, 'media:content')!.attributes).toEqual({
      url: 'https://example.org/media/fish.png',
      medium: 'image',
      type: 'image/png',
    })
  })

  test('an empty feed is still valid and has no lastBuildDate', () => {
    const ch = child(child(parse(renderRss(channel, [])), 'rss'), 'channel')!
    expect(children(ch, 'item')).toHaveLength(0)
    expect(child(ch, 'lastBuildDate')).toBeUndefined()
  })
})

describe('sitemap', () => {
  test('urlset: namespaces, loc, lastmod and hreflang alternates', () => {
    const alternates = [
      { hreflang: 'en', href: 'https://example.org/en/blog/a?x=1&y=2' },
      { hreflang: 'zh', href: 'https://example.org/cn/blog/a-zh' },
      { hreflang: 'x-default', href: 'https://example.org/en/blog/a?x=1&y=2' },
    ]
    const xml = renderUrlset([
      { loc: 'https://example.org/en/blog/a?x=1&y=2', lastmod: '2026-03-01T10:00:00Z', alternates },
      { loc: 'https://example.org/en/blog/b', lastmod: '2026-03-02T10:00:00Z', alternates: [] },
    ])
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
    const urlset = child(parse(xml), 'urlset')!
    expect(urlset.attributes).toEqual({ xmlns: SITEMAP_NS, 'xmlns:xhtml': XHTML_NS })
    const urls = children(urlset, 'url')
    expect(urls.map((u) => text(child(u, 'loc')))).toEqual(['https://example.org/en/blog/a?x=1&y=2', 'https://example.org/en/blog/b'])
    expect(text(child(urls[0], 'lastmod'))).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    expect(children(urls[0], 'xhtml:link').map((l) => l.attributes)).toEqual(alternates.map((a) => ({ rel: 'alternate', ...a })))
    expect(children(urls[1], 'xhtml:link')).toHaveLength(0)
  })

  test('sitemap index lists shards with lastmod', () => {
    const index = child(
      parse(renderSitemapIndex([{ loc: 'https://example.org/api/v1/blog/sitemap/1.xml', lastmod: '2026-03-01T10:00:00Z' }])),
      'sitemapindex',
    )!
    expect(index.attributes).toEqual({ xmlns: SITEMAP_NS })
    expect(text(child(children(index, 'sitemap')[0], 'loc'))).toBe('https://example.org/api/v1/blog/sitemap/1.xml')
  })
})

test('robots.txt allows the site, keeps crawlers off the admin API and names the sitemap', () => {
  expect(renderRobots('https://example.org/api/v1/blog/sitemap.xml')).toBe(
    'User-agent: *\nAllow: /\nDisallow: /api/admin/\n\nSitemap: https://example.org/api/v1/blog/sitemap.xml\n',
  )
})
