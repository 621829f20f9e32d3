import { describe, expect, test } from 'bun:test'
import { xml2js } from 'xml-js'
import type { PostRes } from '../posts/model.ts'
import { atomOf, jsonFeedOf, rssOf, uniqueNames, type Feed } from './feeds.ts'
import { alternatesOf, postHead } from './head.ts'
import { renderMarkdownTwin } from './markdown.ts'
import { postPageHtml } from './render.tsx'
import type { Publication } from './snapshot.ts'

const SITE = 'https://blog.example.org'
const pub: Publication = {
  siteUrl: SITE,
  language: 'en',
  name: 'Field Notes',
  description: 'Notes.',
  iconUrl: '',
  iconAlt: '',
  labels: { en: 'English', zh: '中文' },
}

const post = (over: Partial<PostRes> = {}): PostRes =>
  ({
    id: 7,
    language: 'en',
    slug: 'hello',
    title: 'Hello </script><script>alert(1)</script>',
    summary: 'A summary.',
    seoTitle: '',
    seoDescription: '',
    canonicalUrl: '',
    coverImage: '/media/c.png',
    coverAlt: 'A cover',
    ogTitle: '',
    ogDescription: '',
    ogImage: '',
    answerSummary: '',
    author: 'Guest Writer',
    authorProfile: null,
    publishedAt: '2026-03-01 10:00:00',
    updatedTime: '2026-03-02 10:00:00',
    reviewedAt: null,
    keyTakeaways: [],
    faqBlocks: [{ question: 'Q?', answer: 'A.' }],
    toc: [],
    tags: [],
    category: null,
    contentHtml: '<p>Body with <strong>bold</strong>.</p>',
    contentText: 'Body with bold.',
    relatedPosts: [],
    relatedProducts: [],
    clapCount: 0,
    commentCount: 0,
    ...over,
  }) as PostRes

describe('the head', () => {
  test('falls back from SEO fields to the post, marks up an FAQ only when every block is complete', () => {
    const head = postHead(pub, post(), null, false)
    expect(head.title).toBe(post().title)
    expect(head.description).toBe('A summary.')
    expect(head.canonical).toBe(`${SITE}/en/blog/hello`)
    expect(head.og.image).toBe(`${SITE}/media/c.png`)
    expect(head.jsonLd.map((d: any) => d['@type'])).toEqual(['BlogPosting', 'FAQPage', 'BreadcrumbList'])
    const incomplete = postHead(
      pub,
      post({
        faqBlocks: [
          { question: 'Q?', answer: 'A.' },
          { question: 'Q2?', answer: ' ' },
        ],
      }),
      null,
      false,
    )
    expect(incomplete.jsonLd.map((d: any) => d['@type'])).toEqual(['BlogPosting', 'BreadcrumbList'])
    const seo = postHead(
      pub,
      post({ seoTitle: 'SEO', seoDescription: 'Desc', canonicalUrl: 'https://other.example/x', ogImage: 'https://cdn.example/og.png' }),
      null,
      true,
    )
    expect([seo.title, seo.description, seo.canonical, seo.og.image, seo.noindex]).toEqual([
      'SEO',
      'Desc',
      'https://other.example/x',
      'https://cdn.example/og.png',
      true,
    ])
  })

  test('hreflang alternates are the same on both sides of a pair, with x-default the English page; none alone', () => {
    const en = alternatesOf(SITE, { language: 'en', slug: 'hello' }, { language: 'zh', slug: 'ni-hao' })
    const zh = alternatesOf(SITE, { language: 'zh', slug: 'ni-hao' }, { language: 'en', slug: 'hello' })
    expect(en).toEqual(zh)
    expect(en.find((a) => a.hreflang === 'x-default')?.href).toBe(`${SITE}/en/blog/hello`)
    expect(alternatesOf(SITE, { language: 'en', slug: 'hello' }, null)).toEqual([])
  })

  test('no stored text can close the JSON-LD script or enter the markup unescaped', () => {
    const html = postPageHtml(pub, [], { post: post(), partner: null, noindex: false })
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('Hello \\u003c/script>\\u003cscript>alert(1)\\u003c/script>')
    expect(html).toContain('<h1>Hello &lt;/script>&lt;script>alert(1)&lt;/script></h1>')
  })
})

describe('the post page', () => {
  test('a product card the body already shows is not shown again from relatedProductIds', () => {
    const product = (id: number) => {
      const link = `${SITE}/en/products/${id}-box`
      const cardHtml = `<aside class="product-card"><a href="${link}">Box ${id}</a></aside>`
      return {
        id,
        links: { en: link, zh: link },
        cardHtml: { en: cardHtml, zh: cardHtml },
      } as unknown as PostRes['relatedProducts'][number]
    }
    const [shown, other] = [product(1), product(2)]
    const html = postPageHtml(pub, [], {
      post: post({ contentHtml: `<p>Body.</p>${shown.cardHtml.en}`, relatedProducts: [shown, other] }),
      partner: null,
      noindex: false,
    })
    expect(html.split('>Box 1<').length - 1).toBe(1)
    expect(html.split('>Box 2<').length - 1).toBe(1)
  })
})

describe('feeds and the Markdown twin', () => {
  const feed: Feed = {
    title: 'Field Notes',
    description: 'Notes.',
    language: 'zh',
    publisher: '田野笔记',
    home: `${SITE}/cn/`,
    self: `${SITE}/cn/atom.xml`,
    items: [
      {
        id: 'tag:blog.example.org,2026-03-01:post-7',
        url: `${SITE}/cn/blog/ni-hao`,
        title: '你好 & <再见>',
        summary: '摘要',
        contentHtml: '<p>正文 <b>粗</b> ]]></p>',
        author: { name: '李明', url: '' },
        published: '2026-03-01 10:00:00',
        updated: '2026-03-02 10:00:00',
        image: null,
        tags: ['指南'],
      },
    ],
  }
  test('Atom, JSON Feed and RSS parse and carry the item link, its body and its author', () => {
    expect(() => xml2js(atomOf(feed))).not.toThrow()
    expect(atomOf(feed)).toContain('<content type="html">&lt;p&gt;正文 &lt;b&gt;粗&lt;/b&gt; ]]&gt;&lt;/p&gt;</content>')
    expect(atomOf(feed)).toContain('<author><name>李明</name></author>')
    expect(rssOf(feed)).toContain('<dc:creator>李明</dc:creator>')
    expect(atomOf(feed)).toContain('<updated>2026-03-02T10:00:00Z</updated>')
    expect(() => xml2js(rssOf(feed))).not.toThrow()
    const json = JSON.parse(jsonFeedOf(feed))
    expect(json.version).toBe('https://jsonfeed.org/version/1.1')
    expect(json.items[0]).toMatchObject({ url: `${SITE}/cn/blog/ni-hao`, title: '你好 & <再见>', date_published: '2026-03-01T10:00:00Z' })
    expect(json.items[0].content_html).toBe(feed.items[0]!.contentHtml)
    expect(json.items[0].authors).toEqual([{ name: '李明' }])
  })

  test('a category and a tag of the same name are one feed category', () => {
    expect(uniqueNames(['Guides', 'guides', '', 'Static sites', 'Guides'])).toEqual(['Guides', 'Static sites'])
  })

  test('the twin starts with the title and link, converts the body and ends with the FAQ', () => {
    const md = renderMarkdownTwin(SITE, post({ title: 'Hello *world*' }))
    expect(md).toStartWith('# Hello \\*world\\*\n\n<https://blog.example.org/en/blog/hello>\n')
    expect(md).toContain('Body with **bold**.')
    expect(md).toEndWith('## Frequently asked questions\n\n### Q?\n\nA.\n')
  })
})
