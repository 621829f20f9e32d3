import { PAGE_HEADERS } from '../../src/modules/site/serve.ts'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { xml2js, type Element } from 'xml-js'
import { parse, walkSync, ELEMENT_NODE, type ElementNode } from 'ultrahtml'
import { checkFeeds } from '../support/feeds.ts'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'
import { cacheFiles, fromDisk } from '../publishing/stack.ts'
import { startSiteWorld, type SiteWorld } from './world.ts'

let w: SiteWorld
beforeAll(async () => {
  w = await startSiteWorld({ CORS_ORIGINS: 'https://app.example.org' })
}, 120_000)
afterAll(async () => {
  await w?.dispose()
})

const B = '/api/v1/blog'
const local = (url: string) => url.replace(w.caddy.url, '')
/** Elements named `name` anywhere under `root` (a parsed element or an XML text). */
const elements = (root: string | Element, name: string): Element[] => {
  const found: Element[] = []
  const visit = (e: Element) => {
    if (e.name === name) found.push(e)
    for (const child of e.elements ?? []) visit(child)
  }
  visit(typeof root === 'string' ? (xml2js(root) as Element) : root)
  return found
}
const textOf = (e: Element) => String(e.elements?.[0]?.text ?? '')

/** The `<head>` links and metas of a page, as [tag, attributes] pairs. */
function headOf(html: string): { tag: string; attrs: Record<string, string> }[] {
  const out: { tag: string; attrs: Record<string, string> }[] = []
  walkSync(parse(html), (node) => {
    if (node.type === ELEMENT_NODE && ['link', 'meta', 'html'].includes((node as ElementNode).name))
      out.push({ tag: (node as ElementNode).name, attrs: (node as ElementNode).attributes })
  })
  return out
}
const links = (html: string, rel: string) => headOf(html).filter((e) => e.tag === 'link' && e.attrs.rel === rel)
const hreflangs = (html: string) =>
  Object.fromEntries(
    links(html, 'alternate')
      .filter((l) => l.attrs.hreflang)
      .map((l) => [l.attrs.hreflang, l.attrs.href]),
  )

async function expectHtmlPage(url: string) {
  const response = await w.viaCaddy(local(url))
  expect({ url, status: response.status }).toEqual({ url, status: 200 })
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
  return response.text()
}

/** Every URL the sitemap index leads to. */
async function sitemapLocs(): Promise<string[]> {
  const index = await (await w.viaCaddy('/sitemap.xml')).text()
  const locs: string[] = []
  for (const shard of elements(index, 'loc').map(textOf)) {
    const response = await w.viaCaddy(local(shard))
    expect(response.status).toBe(200)
    locs.push(...elements(await response.text(), 'loc').map(textOf))
  }
  return locs
}

const FEEDS = ['/en/rss.xml', '/cn/rss.xml', '/en/atom.xml', '/cn/atom.xml', '/en/feed.json', '/cn/feed.json']

async function feedLinks(path: string): Promise<string[]> {
  const response = await w.viaCaddy(path)
  expect(response.status).toBe(200)
  const body = await response.text()
  if (path.endsWith('.json')) return (JSON.parse(body).items as { url: string }[]).map((i) => i.url)
  if (path.endsWith('rss.xml')) return elements(body, 'item').flatMap((i) => elements(i, 'link').map(textOf))
  return elements(body, 'entry').flatMap((e) =>
    elements(e, 'link')
      .filter((l) => l.attributes?.rel === 'alternate')
      .map((l) => String(l.attributes?.href)),
  )
}

describe('the public site', () => {
  test('every sitemap <loc> is a 200 HTML page served from disk; posts carry hreflang and their cover', async () => {
    const locs = await sitemapLocs()
    expect(locs).toContain(`${w.caddy.url}/en/blog/choose-a-generator`)
    expect(locs).toContain(`${w.caddy.url}/cn/blog/xuanze-shengchengqi`)
    expect(locs).toContain(`${w.caddy.url}/en/products/${w.productIds['H-100']}-studio-headphones`)
    expect(locs).toContain(`${w.caddy.url}/en/tag/${w.tag.slug}/`)
    for (const loc of locs) {
      await expectHtmlPage(loc)
      expect(fromDisk(await w.viaCaddy(local(loc)))).toBe(true)
    }
    const shard = await (await w.viaCaddy('/sitemap/posts-1.xml')).text()
    expect(shard).toContain('<image:loc>')
    expect(shard).toContain('hreflang="x-default"')
  })

  test('every RSS, Atom and JSON Feed link, per language and per category, tag and author, is a 200 HTML page', async () => {
    const scoped = [`/en/category/${w.category.slug}/`, `/cn/tag/${w.tag.slug}/`, `/en/author/${w.author.slug}/`]
    const paths = [...FEEDS, ...scoped.flatMap((s) => ['rss.xml', 'atom.xml', 'feed.json'].map((f) => `${s}${f}`))]
    const types: Record<string, string> = {
      'rss.xml': 'application/rss+xml',
      'atom.xml': 'application/atom+xml',
      'feed.json': 'application/feed+json',
    }
    for (const path of paths) {
      const response = await w.viaCaddy(path)
      expect(response.headers.get('content-type')).toBe(`${types[path.split('/').pop()!]}; charset=utf-8`)
      const urls = await feedLinks(path)
      expect({ path, n: urls.length > 0 }).toEqual({ path, n: true })
      for (const url of urls) await expectHtmlPage(url)
    }
  })

  test('every feed of every kind parses with feedparser or the JSON Feed 1.1 schema: full bodies, authors, covers, unique ids', async () => {
    const scoped = ['/en/', '/cn/', `/en/category/${w.category.slug}/`, `/cn/tag/${w.tag.slug}/`, `/en/author/${w.author.slug}/`]
    const paths = [
      ...scoped.flatMap((s) => ['rss.xml', 'atom.xml', 'feed.json'].map((f) => `${s}${f}`)),
      ...['en', 'zh'].map((l) => `${B}/rss.xml?language=${l}`),
    ]
    const bodies: Record<string, string> = {}
    for (const path of paths) bodies[path] = await (await w.viaCaddy(path)).text()
    const reports = await checkFeeds(bodies)
    const host = new URL(w.caddy.url).hostname
    for (const path of paths) {
      const report = reports[path]!
      expect({ path, bozo: report.bozo ?? false, error: report.error ?? '', errors: report.errors ?? [] }).toEqual({
        path,
        bozo: false,
        error: '',
        errors: [],
      })
      if (!path.endsWith('.json'))
        expect({ path, version: report.version }).toEqual({ path, version: path.includes('atom') ? 'atom10' : 'rss20' })
      expect({ path, entries: report.entries.length > 0 }).toEqual({ path, entries: true })
      for (const entry of report.entries) {
        expect(entry.id).toMatch(new RegExp(`^tag:${host.replace(/\./g, '\\.')},\\d{4}-\\d{2}-\\d{2}:post-\\d+$`))
        expect(entry.content.length).toBeGreaterThan(200)
        expect(entry.author).toBeTruthy()
        expect(new Set(entry.tags.map((t) => t.toLowerCase())).size).toBe(entry.tags.length)
      }
    }
    // The translated pair's body, author and cover, in every format.
    const en = reports['/en/feed.json']!.entries.find((e) => e.id.endsWith(`:post-${w.en.id}`))!
    expect(en.content).toContain(w.en.contentHtml.slice(0, 40))
    expect(en.author).toBe('Jane Doe')
    // The cover as its largest variant (the original may carry the camera's metadata), with its real length and type.
    const cover = w.en.coverImage.replace(/\.png$/, '-1.png')
    const length = String((await (await w.viaCaddy(local(cover))).arrayBuffer()).byteLength)
    for (const path of ['/en/feed.json', '/en/rss.xml', '/en/atom.xml']) {
      const entry = reports[path]!.entries.find((e) => e.id === en.id)!
      expect({ path, media: [...new Set(entry.media)], enclosures: entry.enclosures }).toEqual({
        path,
        media: [cover],
        enclosures: [{ href: cover, length, type: 'image/png' }],
      })
    }
    expect(reports['/cn/atom.xml']!.entries.find((e) => e.id.endsWith(`:post-${w.zh.id}`))!.author).toBe('李明')
    // The API's RSS: the publication's name, a link to the site's home that is a page.
    for (const [language, name, home] of [
      ['en', 'Field Notes', '/en/'],
      ['zh', '田野笔记', '/cn/'],
    ] as const) {
      const api = reports[`${B}/rss.xml?language=${language}`]!
      expect({ title: api.title, link: api.link }).toEqual({ title: name, link: `${w.caddy.url}${home}` })
      await expectHtmlPage(api.link!)
    }
  })

  test('a post page has one complete head: title, description, canonical, reciprocal hreflang, OG, JSON-LD agreeing with the page', async () => {
    const en = await expectHtmlPage(`${w.caddy.url}/en/blog/choose-a-generator`)
    const zh = await expectHtmlPage(`${w.caddy.url}/cn/blog/xuanze-shengchengqi`)
    expect(en).toStartWith('<!doctype html>\n<html lang="en">')
    expect(zh).toContain('<html lang="zh-CN">')
    expect(links(en, 'canonical')[0]?.attrs.href).toBe(`${w.caddy.url}/en/blog/choose-a-generator`)
    const enAlt = hreflangs(en)
    const zhAlt = hreflangs(zh)
    expect(enAlt).toEqual(zhAlt)
    expect(enAlt).toEqual({
      en: `${w.caddy.url}/en/blog/choose-a-generator`,
      zh: `${w.caddy.url}/cn/blog/xuanze-shengchengqi`,
      'x-default': `${w.caddy.url}/en/blog/choose-a-generator`,
    })
    const meta = (html: string, key: string) =>
      headOf(html).find((e) => e.tag === 'meta' && (e.attrs.name === key || e.attrs.property === key))?.attrs.content
    expect(meta(en, 'description')).toBe(w.en.seoDescription || w.en.summary)
    // The share image is the upload's largest variant (here its own 1 px width), which carries no EXIF (docs/media.md).
    expect(meta(en, 'og:image')).toBe(w.en.coverImage.replace(/\.png$/, '-1.png'))
    expect(meta(en, 'og:image:alt')).toBe('Three generator logos on a desk')
    expect(meta(en, 'twitter:card')).toBe('summary_large_image')
    expect(meta(en, 'robots')).toBeUndefined()
    const ld = [...en.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!))
    expect(ld.map((d) => d['@type'])).toEqual(['BlogPosting', 'FAQPage', 'BreadcrumbList'])
    expect(ld[0].headline).toBe(w.en.title)
    expect(en).toContain(`<h1>${w.en.title}</h1>`)
    expect(ld[0].author).toMatchObject({ '@type': 'Person', name: 'Jane Doe' })
    expect(ld[0].publisher).toMatchObject({ '@type': 'Organization', name: 'Field Notes' })
    expect(ld[1].mainEntity).toHaveLength(w.en.faqBlocks.length)
    // The Markdown twin holds the same text.
    const twin = await w.viaCaddy('/en/blog/choose-a-generator.md')
    expect(twin.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(await twin.text()).toStartWith(`# ${w.en.title.replace(/,/g, ',')}\n`)
    const llms = await (await w.viaCaddy('/llms.txt')).text()
    expect(llms).toStartWith('# Field Notes\n')
    expect(llms).toContain(`(${w.caddy.url}/cn/blog/xuanze-shengchengqi.md)`)
  })

  test('reading: a nested TOC, an icon on every page, previous/next and the category, the product card once', async () => {
    const first = await expectHtmlPage(`${w.caddy.url}/en/blog/choose-a-generator`)
    const second = await expectHtmlPage(`${w.caddy.url}/en/blog/second-post`)
    const zh = await expectHtmlPage(`${w.caddy.url}/cn/blog/xuanze-shengchengqi`)
    // h3 entries sit in their own list under their h2, so each list numbers from 1.
    const toc = first.slice(first.indexOf('<nav class="toc"'), first.indexOf('</nav>', first.indexOf('<nav class="toc"')))
    expect(toc).toContain('<details')
    expect(toc).toMatch(/<li><a href="#[^"]+">[^<]+<\/a><ol><li><a href="#/)
    for (const page of [first, await expectHtmlPage(`${w.caddy.url}/en/`), await (await w.viaCaddy('/nothing-here')).text()])
      expect(links(page, 'icon').map((l) => l.attrs.href)).toHaveLength(1)
    expect(links(first, 'icon')[0]!.attrs.href).toMatch(/^http.*\.png$/)
    // The oldest post of the category leads on to the newer one (published after it), and back.
    expect(first).toContain('href="/en/blog/second-post" rel="next"')
    expect(second).toContain('href="/en/blog/choose-a-generator" rel="prev"')
    for (const page of [first, second, zh]) expect(page).toMatch(new RegExp(`href="/(en|cn)/category/${w.category.slug}/"`))
    // The catalogue example's body shows no card, so the related product's card appears once.
    expect(first.split('class="product-card"').length - 1).toBe(1)
  })

  test('pages are served with a CSP and frame protection, by Caddy and by the API alike', async () => {
    const policies = new Set<string | null>()
    for (const get of [w.viaCaddy, w.viaApi]) {
      const response = await get('/en/blog/choose-a-generator')
      expect(response.status).toBe(200)
      policies.add(response.headers.get('content-security-policy'))
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('etag')).toBeTruthy()
    }
    // The Caddyfile repeats the policy of http/headers.ts: the two must not drift apart.
    expect([...policies]).toEqual([PAGE_HEADERS['content-security-policy']!])
    // Uncompressed, so Caddy answers with the main file rather than a precompressed copy.
    const api = await w.viaApi('/en/blog/choose-a-generator', { 'accept-encoding': 'identity' })
    const caddy = await w.viaCaddy('/en/blog/choose-a-generator', { 'accept-encoding': 'identity' })
    expect(api.headers.get('etag')).toBe(caddy.headers.get('etag'))
    expect(await api.text()).toBe(await caddy.text())
  })

  test('unknown paths answer the HTML 404 page; / offers both languages', async () => {
    for (const get of [w.viaCaddy, w.viaApi]) {
      for (const path of ['/nothing-here', '/en/blog/no-such-post', '/en/page/99/', '/en/products/999-nothing']) {
        const response = await get(path)
        expect({ path, status: response.status }).toEqual({ path, status: 404 })
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
        expect(await response.text()).toContain('Page not found')
      }
    }
    const root = await (await w.viaCaddy('/')).text()
    expect(root).toContain('href="/en/"')
    expect(root).toContain('href="/cn/"')
  })

  test('stored text is escaped: a hostile product name shows as text', async () => {
    const page = await (await w.viaCaddy(`/en/products/${w.productIds.HOSTILE}-script-alert-x-script-tom-jerrys-best-box`)).text()
    expect(page).toContain('&lt;script>alert(&quot;x&quot;)&lt;/script>')
    expect(page).not.toContain('<script>alert')
    expect(page).toContain('"@type":"Product"')
  })
})

describe('pages follow the posts', () => {
  test('an old slug answers 301; unpublish and delete take pages out of lists, feeds and sitemaps; noindex gets a page but no listing', async () => {
    const { folio, token, categoryId, authorId } = w
    const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId, { slug: 'moving-post' }))
    expect((await w.viaCaddy('/en/blog/moving-post')).status).toBe(200)
    await folio.call('POST', `${B}/posts/save`, {
      token,
      body: { ...publishablePost(categoryId, authorId), id: post.id, slug: 'moved-post' },
    })
    const moved = await w.viaCaddy('/en/blog/moving-post')
    expect(moved.status).toBe(301)
    expect(moved.headers.get('location')).toBe('/en/blog/moved-post')
    expect((await w.viaCaddy('/en/blog/moved-post')).status).toBe(200)
    expect((await w.viaCaddy('/en/blog/moving-post.md')).status).toBe(404)

    const listed = async (slug: string) => {
      const home = await (await w.viaCaddy('/en/')).text()
      const rss = await (await w.viaCaddy('/en/rss.xml')).text()
      const locs = await sitemapLocs()
      return {
        home: home.includes(`/en/blog/${slug}"`),
        rss: rss.includes(`/en/blog/${slug}<`),
        sitemap: locs.some((l) => l.endsWith(`/en/blog/${slug}`)),
      }
    }
    expect(await listed('moved-post')).toEqual({ home: true, rss: true, sitemap: true })

    // noindex: a page with meta robots, no listing anywhere.
    await folio.call('POST', `${B}/posts/save`, {
      token,
      body: { ...publishablePost(categoryId, authorId), id: post.id, slug: 'moved-post', indexable: false },
    })
    const noindex = await w.viaCaddy('/en/blog/moved-post')
    expect(noindex.status).toBe(200)
    expect(await noindex.text()).toContain('<meta name="robots" content="noindex"/>')
    expect(await listed('moved-post')).toEqual({ home: false, rss: false, sitemap: false })

    await folio.call('GET', `${B}/posts/operate?id=${post.id}&status=2`, { token })
    expect((await w.viaCaddy('/en/blog/moved-post')).status).toBe(404)
    await folio.call('GET', `${B}/posts/operate?id=${post.id}&status=1`, { token })
    await folio.call('POST', `${B}/posts/save`, {
      token,
      body: { ...publishablePost(categoryId, authorId), id: post.id, slug: 'moved-post', indexable: true },
    })
    expect(await listed('moved-post')).toEqual({ home: true, rss: true, sitemap: true })
    await folio.call('GET', `${B}/posts/delete?id=${post.id}`, { token })
    expect((await w.viaCaddy('/en/blog/moved-post')).status).toBe(404)
    expect(await listed('moved-post')).toEqual({ home: false, rss: false, sitemap: false })
  }, 120_000)

  test('a renamed tag moves its pages: the old ones go, the new ones are served', async () => {
    const old = `/en/tag/${w.tag.slug}/`
    expect((await w.viaCaddy(old)).status).toBe(200)
    const saved = await w.folio.call('POST', `${B}/tags/save`, {
      token: w.token,
      body: { id: w.tag.id, slug: 'static-websites', nameEn: 'Static websites', nameZh: '静态网站', language: 'all' },
    })
    expect(saved.body.code).toBe('0000')
    expect((await w.viaCaddy(old)).status).toBe(404)
    expect(existsSync(join(w.folio.cacheDir, `en/tag/${w.tag.slug}/@`))).toBe(false)
    const renamed = await w.viaCaddy('/en/tag/static-websites/')
    expect(renamed.status).toBe(200)
    expect(fromDisk(renamed)).toBe(true)
    expect(await (await w.viaCaddy('/en/blog/choose-a-generator')).text()).toContain('href="/en/tag/static-websites/"')
  })

  test('a publish leaves unrelated pages untouched, and a rebuild equals the incremental path byte for byte, pages included', async () => {
    await w.folio.settled()
    const before = cacheFiles(w.folio.cacheDir)
    await publishNewPost(w.folio, w.token, publishablePost(w.categoryId, w.authorId, { slug: 'one-more-post' }))
    // Compressed copies a pass left for a second later are written by then.
    await w.folio.settled()
    const after = cacheFiles(w.folio.cacheDir)
    const changed = [...after.keys()].filter((path) => before.get(path) !== after.get(path)).filter((p) => !/\.(br|gz)$/.test(p))
    // The other language's pages and the product pages keep their bytes (and so their ETags).
    expect(changed.filter((p) => p.startsWith('cn/') || p.includes('/products/'))).toEqual([])
    expect(changed).toContain('en/blog/one-more-post/@')
    // The site's share (docs/site.md): the page and twin, the previous post's page (its next link), home, category, author,
    // their feeds, sitemap index and shard, llms.txt.
    expect(changed.filter((p) => !p.startsWith('api/') && !p.startsWith('search/')).length).toBeLessThanOrEqual(18)
    // The search index's share (docs/search.md): the post's segment, its docs and buckets, and the manifest at most.
    expect(changed.filter((p) => p.startsWith('search/')).length).toBeLessThanOrEqual(34)

    const out = await w.folio.cli('rebuild')
    expect(out.stdout).toMatch(/ 0 written, 0 removed/)
    expect(cacheFiles(w.folio.cacheDir)).toEqual(after)
    for (const top of ['api', 'en', 'cn', 'assets', 'sitemap', 'sitemap.xml', 'robots.txt', 'llms.txt', '@'])
      rmSync(`${w.folio.cacheDir}/${top}`, { recursive: true, force: true })
    expect((await w.folio.cli('rebuild')).code).toBe(0)
    expect(cacheFiles(w.folio.cacheDir)).toEqual(after)
  }, 120_000)
})

describe('CORS for the anonymous endpoints (CORS_ORIGINS)', () => {
  const APP = 'https://app.example.org'
  const preflight = (path: string, origin: string, method: string) =>
    fetch(`${w.caddy.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
    })

  test('preflights allow claps and comments from an allowed origin only, and never the admin API', async () => {
    const comments = await preflight(`${B}/posts/${w.en.id}/comments`, APP, 'POST')
    expect(comments.status).toBe(204)
    expect(comments.headers.get('access-control-allow-origin')).toBe(APP)
    expect(comments.headers.get('access-control-allow-methods')).toBe('POST')
    expect(comments.headers.get('access-control-allow-headers')).toContain('Content-Type')
    for (const [path, origin, method] of [
      [`${B}/posts/${w.en.id}/comments`, 'https://evil.example.net', 'POST'],
      [`${B}/posts/save`, APP, 'POST'],
      ['/api/admin/blog/comments', APP, 'GET'],
      [`${B}/posts/choose-a-generator`, APP, 'DELETE'],
    ]) {
      const refused = await preflight(path!, origin!, method!)
      expect({ path, origin, acao: refused.headers.get('access-control-allow-origin') }).toEqual({ path, origin, acao: null })
    }
  })

  test('reads and a clap from an allowed origin carry the CORS headers; other origins get none', async () => {
    const read = await w.viaCaddy(`${B}/posts/choose-a-generator`, { origin: APP })
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBe(APP)
    expect(read.headers.get('vary')).toContain('Origin')
    const clap = await fetch(`${w.caddy.url}${B}/posts/${w.second.id}/reactions`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json' },
      body: JSON.stringify({ reactionKey: 'clap', clientKey: 'cors-test', count: 1 }),
    })
    expect((await clap.json()).code).toBe('0000')
    expect(clap.headers.get('access-control-allow-origin')).toBe(APP)
    const other = await w.viaCaddy(`${B}/posts/choose-a-generator`, { origin: 'https://evil.example.net' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})
