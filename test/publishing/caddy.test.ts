import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { xml2js, type Element } from 'xml-js'
import { COPIES_MIN_BYTES } from '../../src/modules/publishing/copies-rule.ts'
import { CONTROL_HEADER, CONTROL_NOTE, REBUILD_PATH } from '../../src/operations/rebuild-control.ts'
import { publishablePost, publishableZhPost, publishNewPost } from '../support/fixtures.ts'
import { fromDisk, startStack, type Stack } from './stack.ts'

let stack: Stack
beforeAll(async () => {
  stack = await startStack()
}, 60_000)
afterAll(async () => {
  await stack?.dispose()
})

const B = '/api/v1/blog'
const detail = (slug: string, language = 'en') => `${B}/posts/${slug}?language=${language}`
const parse = (xml: string) => xml2js(xml, { compact: false }) as Element
const all = (e: Element | undefined, name: string): Element[] =>
  (e?.elements ?? []).flatMap((c) => [...(c.name === name ? [c] : []), ...all(c, name)])
const textOf = (e: Element | undefined) => String(e?.elements?.[0]?.text ?? '')

async function publish(overrides: Record<string, unknown> = {}) {
  return publishNewPost(stack.folio, stack.token, publishablePost(stack.categoryId, stack.authorId, overrides))
}

const operate = (id: number, status: 1 | 2) =>
  stack.folio.call('GET', `${B}/posts/operate?id=${id}&status=${status}`, { token: stack.token })

async function listed(path: string): Promise<string> {
  const response = await stack.viaCaddy(path)
  expect(response.status).toBe(200)
  return response.text()
}

describe('reads through Caddy', () => {
  test('a published post is served from disk with the bytes and validators the API gives', async () => {
    const post = await publish()
    expect(post.sitemapUpdated).toBe(true)
    expect(post.rssUpdated).toBe(true)
    // Identity: Caddy gives each precompressed copy its own ETag; the API always answers uncompressed.
    const viaCaddy = await stack.viaCaddy(detail(post.slug), { 'accept-encoding': 'identity' })
    const viaApi = await stack.viaApi(detail(post.slug))
    expect(viaCaddy.status).toBe(200)
    expect(fromDisk(viaCaddy)).toBe(true)
    expect(viaCaddy.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = await viaCaddy.text()
    expect(body).toBe(await viaApi.text())
    expect(JSON.parse(body)).toMatchObject({ code: '0000', message: 'success', data: { id: post.id, slug: post.slug, title: post.title } })
    expect(viaCaddy.headers.get('etag')).toBe(viaApi.headers.get('etag'))
    expect(viaCaddy.headers.get('last-modified')).toBe(viaApi.headers.get('last-modified'))
    // The default language is en, so the bare path is the same artifact.
    expect(await (await stack.viaCaddy(`${B}/posts/${post.slug}`)).text()).toBe(body)
  })

  test('a repeat with If-None-Match or If-Modified-Since is a bodiless 304, through Caddy and from the API', async () => {
    const post = await publish()
    for (const read of [stack.viaCaddy, stack.viaApi]) {
      const first = await read(detail(post.slug))
      const etag = first.headers.get('etag')!
      const lastModified = first.headers.get('last-modified')!
      expect(etag).toMatch(/^"[^"]+"$/)
      const again = await read(detail(post.slug), { 'if-none-match': etag })
      expect(again.status).toBe(304)
      expect(await again.text()).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
      expect((await read(detail(post.slug), { 'if-modified-since': lastModified })).status).toBe(304)
      expect((await read(detail(post.slug), { 'if-none-match': '"other"' })).status).toBe(200)
    }
  })

  test('an edit changes the ETag at once; artifacts it does not touch keep theirs', async () => {
    const post = await publish()
    // Copies the publish left for later (a second after the last ones) would change the ETag of
    // what Caddy serves an Accept-Encoding client (the copy's), not the artifact: let them land.
    await stack.folio.settled()
    const before = await stack.viaCaddy(detail(post.slug))
    const categories = (await stack.viaCaddy(`${B}/categories`)).headers.get('etag')
    const saved = await stack.folio.call('POST', `${B}/posts/save`, {
      token: stack.token,
      body: { ...publishablePost(stack.categoryId, stack.authorId), id: post.id, slug: post.slug, title: `${post.title}!` },
    })
    expect(saved.body.code).toBe('0000')
    const after = await stack.viaCaddy(detail(post.slug), { 'if-none-match': before.headers.get('etag')! })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
    expect(((await after.json()) as { data: { title: string } }).data.title).toBe(`${post.title}!`)
    expect((await stack.viaCaddy(`${B}/categories`)).headers.get('etag')).toBe(categories)
  })

  test('lists, feeds and the other reads come from disk with their content types', async () => {
    const post = await publish()
    const cases: [string, string][] = [
      [`${B}/posts`, 'application/json; charset=utf-8'],
      [`${B}/posts?language=en`, 'application/json; charset=utf-8'],
      [`${B}/posts?categoryId=${stack.categoryId}`, 'application/json; charset=utf-8'],
      [`${B}/categories`, 'application/json; charset=utf-8'],
      [`${B}/tags?language=en`, 'application/json; charset=utf-8'],
      [`${B}/authors`, 'application/json; charset=utf-8'],
      [`${B}/publication-settings`, 'application/json; charset=utf-8'],
      [`${B}/rss.xml`, 'application/xml; charset=utf-8'],
      [`${B}/sitemap.xml`, 'application/xml; charset=utf-8'],
      [`${B}/robots.txt`, 'text/plain; charset=utf-8'],
      [`${B}/openapi.json`, 'application/json; charset=utf-8'],
    ]
    for (const [path, type] of cases) {
      const viaCaddy = await stack.viaCaddy(path)
      const viaApi = await stack.viaApi(path)
      expect([path, viaCaddy.status, fromDisk(viaCaddy), viaCaddy.headers.get('content-type')]).toEqual([path, 200, true, type])
      expect(viaApi.headers.get('content-type')).toBe(type)
      expect(await viaCaddy.text()).toBe(await viaApi.text())
    }
    expect(await listed(`${B}/posts`)).toContain(post.slug)
  })

  test('another spelling of a pre-rendered read is answered by the API with the same bytes and validators', async () => {
    await publish()
    const identity = { 'accept-encoding': 'identity' }
    const canonical = await stack.viaCaddy(`${B}/posts?language=en`, identity)
    expect(fromDisk(canonical)).toBe(true)
    for (const spelling of [`${B}/posts?current=1&size=10&language=en`, `${B}/posts?size=10&language=en`]) {
      const other = await stack.viaCaddy(spelling, identity)
      expect(fromDisk(other)).toBe(false)
      expect(other.headers.get('etag')).toBe(canonical.headers.get('etag'))
      expect(other.headers.get('last-modified')).toBe(canonical.headers.get('last-modified'))
      expect(await other.text()).toBe(await (await stack.viaCaddy(`${B}/posts?language=en`)).text())
    }
  })

  test('the four reads whose language defaults to en answer `?language=en` from their one file; lists keep their own', async () => {
    const post = await publish()
    await stack.folio.settled()
    const authors = (await (await stack.viaApi(`${B}/authors`)).json()) as { data: { id: number; slug: string }[] }
    const author = authors.data.find((a) => a.id === stack.authorId)!.slug
    const identity = { 'accept-encoding': 'identity' }
    const defaulting = [`${B}/posts/${post.slug}`, `${B}/authors/${author}`, `${B}/authors/${author}/posts`, `${B}/rss.xml`]
    // Only the canonical files exist: nothing on disk for the spelled-out default.
    for (const path of defaulting) expect(existsSync(join(stack.folio.cacheDir, `${path.slice(1)}/@language=en`))).toBe(false)
    const spelledOut = async () => {
      for (const path of defaulting) {
        const bare = await stack.viaCaddy(path, identity)
        for (const spelling of [`${path}?language=en`, `${path}/?language=en`]) {
          const viaCaddy = await stack.viaCaddy(spelling, identity)
          const viaApi = await stack.viaApi(spelling, identity)
          expect([spelling, viaCaddy.status, fromDisk(viaCaddy), viaApi.status]).toEqual([spelling, 200, true, 200])
          expect([spelling, viaCaddy.headers.get('etag'), viaApi.headers.get('etag')]).toEqual([
            spelling,
            bare.headers.get('etag'),
            bare.headers.get('etag'),
          ])
          expect([spelling, viaCaddy.headers.get('content-type')]).toEqual([spelling, bare.headers.get('content-type')])
          expect(await viaCaddy.text()).toBe(await viaApi.text())
        }
        const brotli = await stack.viaCaddy(`${path}?language=en`, { 'accept-encoding': 'br' })
        expect([path, fromDisk(brotli)]).toEqual([path, true])
        expect(await brotli.text()).toBe(await bare.text())
      }
    }
    await spelledOut()
    // Lists whose language does not default: `?language=en` is their own file, never the bare path's.
    for (const list of ['posts', 'tags', 'authors']) {
      const response = await stack.viaCaddy(`${B}/${list}?language=en`, identity)
      expect([list, fromDisk(response)]).toEqual([list, true])
      expect(await response.text()).toBe(readFileSync(join(stack.folio.cacheDir, `api/v1/blog/${list}/@language=en`), 'utf8'))
    }
    // Spellings the rule does not cover find no file: the API answers them.
    for (const spelling of [
      `${B}/posts/${post.slug}?language=en&language=zh`,
      `${B}/posts/${post.slug}?language=en&current=2`,
      `${B}/rss.xml?current=1&language=en`,
      `${B}/authors/${author}/posts?language=en&size=12`,
    ]) {
      const response = await stack.viaCaddy(spelling, identity)
      expect([spelling, fromDisk(response)]).toEqual([spelling, false])
    }

    // A CACHE_DIR of an older version holds alias links for that spelling: the next rebuild takes them as junk, and the reads still come from disk.
    const links = defaulting.flatMap((path) => ['', '.br', '.gz'].map((ext) => [`${path.slice(1)}/@language=en${ext}`, `@${ext}`] as const))
    for (const [link, to] of links) symlinkSync(to, join(stack.folio.cacheDir, link))
    const rebuilt = await stack.folio.cli('rebuild')
    expect(rebuilt.code).toBe(0)
    // One stray name per old link (its copies' links go with it); other pending work may remove more.
    expect(Number(/(\d+) removed/.exec(rebuilt.stdout)?.[1])).toBeGreaterThanOrEqual(defaulting.length)
    for (const [link] of links) expect(() => lstatSync(join(stack.folio.cacheDir, link))).toThrow()
    await spelledOut()
  })

  test("gzip and brotli clients get the precompressed copies; the API's JSON and the Markdown twin have .gz alone, so br clients get gzip", async () => {
    const post = await publish()
    // Copies the publish left for later land first: every copy the rule gives is on disk.
    await stack.folio.settled()
    const { brotliDecompressSync } = await import('node:zlib')
    const read = (path: string, encoding: string) =>
      fetch(`${stack.caddy.url}${path}`, { headers: { 'accept-encoding': encoding }, decompress: false } as RequestInit)
    // URL, its file, what a `br, gzip` client gets (copies-rule.ts): scripts' and agents' reads gzip, a browser's page brotli.
    const reads: [string, string, string][] = [
      [detail(post.slug), `api/v1/blog/posts/${post.slug}/@`, 'gzip'],
      [`/en/blog/${post.slug}.md`, `en/blog/${post.slug}.md/@`, 'gzip'],
      [`/en/blog/${post.slug}`, `en/blog/${post.slug}/@`, 'br'],
    ]
    for (const [path, name, preferred] of reads) {
      const file = join(stack.folio.cacheDir, name)
      const main = readFileSync(file)
      expect([path, main.length >= COPIES_MIN_BYTES, existsSync(`${file}.br`), existsSync(`${file}.gz`)]).toEqual([
        path,
        true,
        preferred === 'br',
        true,
      ])
      // `br` alone for a gzip-only read: no copy it accepts, so the identity bytes.
      for (const [encoding, expected] of [
        ['br, gzip', preferred],
        ['gzip', 'gzip'],
        ['br', preferred === 'br' ? 'br' : null],
      ] as const) {
        const response = await read(path, encoding)
        const bytes = Buffer.from(await response.arrayBuffer())
        const got = response.headers.get('content-encoding')
        expect([path, encoding, response.status, fromDisk(response), got]).toEqual([path, encoding, 200, true, expected])
        if (got) expect([path, encoding, response.headers.get('vary')]).toEqual([path, encoding, 'Accept-Encoding'])
        const decoded = got === 'gzip' ? Bun.gunzipSync(bytes) : got === 'br' ? brotliDecompressSync(bytes) : bytes
        expect([path, encoding, Buffer.from(decoded).equals(main)]).toEqual([path, encoding, true])
      }
    }
    // The API answers the identity bytes to any client, as before: the same bytes for every encoding.
    const viaApi = await fetch(`${stack.folio.url}${detail(post.slug)}`, {
      headers: { 'accept-encoding': 'br, gzip' },
      decompress: false,
    } as RequestInit)
    expect(viaApi.headers.get('content-encoding')).toBeNull()
    expect(Buffer.from(await viaApi.arrayBuffer()).equals(readFileSync(join(stack.folio.cacheDir, reads[0]![1])))).toBe(true)
  })

  test('an artifact too small for copies: br and gzip clients get its identity bytes and headers, from Caddy as from the API', async () => {
    await publish()
    const zlibClient = { 'accept-encoding': 'br, gzip' }
    const authors = (await (await stack.viaApi(`${B}/authors`)).json()) as { data: { id: number; slug: string }[] }
    const author = authors.data.find((a) => a.id === stack.authorId)!
    // An author's JSON also has an alias spelling (`?language=en`: a link to the file, and links to copies it has not).
    const files: [string, string][] = [
      ['/robots.txt', 'robots.txt/@'],
      [`${B}/categories`, 'api/v1/blog/categories/@'],
      [`${B}/authors/${author.slug}?language=en`, `api/v1/blog/authors/${author.slug}/@`],
    ]
    for (const [path, name] of files) {
      const file = join(stack.folio.cacheDir, name)
      expect([path, statSync(file).size < COPIES_MIN_BYTES, existsSync(`${file}.br`), existsSync(`${file}.gz`)]).toEqual([
        path,
        true,
        false,
        false,
      ])
      const read = (base: string) => fetch(`${base}${path}`, { headers: zlibClient, decompress: false } as RequestInit)
      const [viaCaddy, viaApi] = [await read(stack.caddy.url), await read(stack.folio.url)]
      expect(fromDisk(viaCaddy)).toBe(true)
      const answer = async (r: Response): Promise<Record<string, string | number | null>> => ({
        status: r.status,
        body: await r.text(),
        ...Object.fromEntries(
          ['etag', 'last-modified', 'content-type', 'cache-control', 'content-encoding', 'vary', 'content-length'].map((h) => [
            h,
            r.headers.get(h),
          ]),
        ),
      })
      const fromCaddy = await answer(viaCaddy)
      expect(fromCaddy).toEqual(await answer(viaApi))
      expect(fromCaddy).toMatchObject({ status: 200, body: readFileSync(file, 'utf8'), 'content-encoding': null })
      const again = await stack.viaCaddy(path, { ...zlibClient, 'if-none-match': String(fromCaddy.etag) })
      expect(again.status).toBe(304)
    }
  })

  test("a read without a query is its folder's `@` file; the files themselves are never URLs", async () => {
    const post = await publish()
    await stack.folio.settled() // its copies too (asked for below)
    const path = `${B}/posts/${post.slug}`
    const body = await (await stack.viaCaddy(path)).text()
    // A trailing slash and an empty query spell the same read, served from disk as the API serves it.
    for (const spelling of [`${path}/`, `${path}?`]) {
      const response = await stack.viaCaddy(spelling)
      expect([spelling, response.status, fromDisk(response)]).toEqual([spelling, 200, true])
      expect(await response.text()).toBe(body)
    }
    // Its copy (`.gz` alone for the API's JSON: copies-rule.ts) is the folder's `@.gz`.
    const gzip = await fetch(`${stack.caddy.url}${path}`, { headers: { 'accept-encoding': 'br, gzip' }, decompress: false } as RequestInit)
    expect([fromDisk(gzip), gzip.headers.get('content-encoding')]).toEqual([true, 'gzip'])
    expect(Buffer.from(Bun.gunzipSync(Buffer.from(await gzip.arrayBuffer()))).toString()).toBe(body)
    const head = await fetch(`${stack.caddy.url}${path}`, { method: 'HEAD' })
    expect([head.status, fromDisk(head), head.headers.get('content-type')]).toEqual([200, true, 'application/json; charset=utf-8'])
    expect(await head.text()).toBe('')
    // The artifact's own file, its compressed copies, CACHE_DIR's bookkeeping and a name too long for
    // the file system go to the API, which has no such reads.
    for (const file of [
      `${path}/@`,
      `${path}/%40`,
      `${path}/@.br`,
      `${path}/@language=en`,
      '/.folio-rendered',
      `${B}/${'a'.repeat(300)}`,
    ]) {
      const response = await stack.viaCaddy(file)
      expect([file, fromDisk(response)]).toEqual([file, false])
      expect(await response.text()).not.toBe(body)
    }
  })

  test('reads that are not pre-rendered, token-bearing reads and writes reach the API', async () => {
    await publish()
    for (const path of [`${B}/posts?keyword=static`, `${B}/posts?size=20`, `${B}/posts?current=6`, `${B}/posts?language=fr`]) {
      const response = await stack.viaCaddy(path)
      expect(fromDisk(response)).toBe(false)
      if (response.status === 200) expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    }
    expect((await stack.viaCaddy(`${B}/posts?language=fr`)).status).toBe(400)
    const withToken = await stack.viaCaddy(`${B}/posts`, { authorization: `Bearer ${stack.token}` })
    expect(fromDisk(withToken)).toBe(false)
    expect(withToken.status).toBe(200)
    const write = await fetch(`${stack.caddy.url}${B}/categories/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ nameEn: 'Through Caddy' }),
    })
    expect(((await write.json()) as { code: string }).code).toBe('0000')
  })

  test('the state-changing GETs are never cached', async () => {
    const post = await publish()
    const response = await fetch(`${stack.caddy.url}${B}/posts/operate?id=${post.id}&status=1`, {
      headers: { authorization: `Bearer ${stack.token}` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('etag')).toBeNull()
    const anonymous = await stack.viaCaddy(`${B}/posts/delete?id=${post.id}`)
    expect(anonymous.status).toBe(401)
  })
})

describe('the control path', () => {
  test("the server's rebuild control is never reached through Caddy, even with its secret", async () => {
    const note = JSON.parse(readFileSync(join(stack.folio.dataDir, CONTROL_NOTE), 'utf8')) as { secret: string }
    // An earlier test's `cli rebuild` was handed to the server: what /healthz says of it must not change.
    const rebuildState = async () => ((await (await stack.viaApi('/healthz')).json()) as { data: { rebuild: unknown } }).data.rebuild
    const before = await rebuildState()
    for (const path of [REBUILD_PATH, `${REBUILD_PATH}/`, '/_folio']) {
      const asked = await fetch(stack.caddy.url + path, {
        method: 'POST',
        headers: { [CONTROL_HEADER]: note.secret, 'content-type': 'application/json' },
        body: '{}',
      })
      expect(asked.status).toBe(404)
      expect(((await asked.json()) as { code: string }).code).toBe('NOT_FOUND')
    }
    expect(await rebuildState()).toEqual(before)
  })
})

describe('leaving the public', () => {
  async function expectGone(post: { id: number; slug: string; title: string }) {
    const read = await stack.viaCaddy(detail(post.slug))
    expect(fromDisk(read)).toBe(false)
    expect(read.status).toBe(400)
    expect(await listed(`${B}/posts`)).not.toContain(post.slug)
    expect(await listed(`${B}/posts?categoryId=${stack.categoryId}`)).not.toContain(post.slug)
    expect(await listed(`${B}/authors/${await authorSlug()}/posts`)).not.toContain(post.slug)
    const rss = await listed(`${B}/rss.xml?language=en`)
    expect(all(parse(rss), 'guid').filter((g) => textOf(g).endsWith(`:post-${post.id}`))).toEqual([])
    expect(await listed(`${B}/sitemap.xml`)).not.toContain(post.slug)
  }

  const authorSlug = async () =>
    (await stack.folio.call('GET', `${B}/authors`)).body.data.find((a: { id: number }) => a.id === stack.authorId).slug

  test('after unpublish the post is gone from detail, lists, RSS and sitemap; republishing brings it back', async () => {
    const post = await publish()
    expect(await listed(`${B}/posts`)).toContain(post.slug)
    expect(await listed(`${B}/sitemap.xml`)).toContain(post.slug)
    expect((await operate(post.id, 2)).body.data).toBe(true)
    await expectGone(post)
    expect((await operate(post.id, 1)).body.data).toBe(true)
    expect((await stack.viaCaddy(detail(post.slug))).status).toBe(200)
    expect(await listed(`${B}/rss.xml`)).toContain(post.slug)
  })

  test('after delete the post is gone everywhere', async () => {
    const post = await publish()
    const deleted = await stack.folio.call('GET', `${B}/posts/delete?id=${post.id}`, { token: stack.token })
    expect(deleted.body.data).toBe(true)
    await expectGone(post)
  })

  test('a noindex post is readable from the API but has no artifact and is not listed', async () => {
    const post = await publish({ indexable: false })
    const read = await stack.viaCaddy(detail(post.slug))
    expect(read.status).toBe(200)
    expect(fromDisk(read)).toBe(false)
    expect(await listed(`${B}/posts`)).not.toContain(post.slug)
    expect(await listed(`${B}/sitemap.xml`)).not.toContain(post.slug)
  })

  test('an old slug answers 301 through Caddy, the new one is served from disk', async () => {
    const post = await publish()
    const renamed = `${post.slug}-renamed`
    const saved = await stack.folio.call('POST', `${B}/posts/save`, {
      token: stack.token,
      body: { ...publishablePost(stack.categoryId, stack.authorId), id: post.id, slug: renamed, title: post.title },
    })
    expect(saved.body.code).toBe('0000')
    const old = await stack.viaCaddy(detail(post.slug))
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toBe(`${B}/posts/${renamed}?language=en`)
    const fresh = await stack.viaCaddy(detail(renamed))
    expect(fresh.status).toBe(200)
    expect(fromDisk(fresh)).toBe(true)
    expect(await listed(`${B}/sitemap.xml`)).not.toContain(`/${post.slug}<`)
  })
})

describe('feeds through Caddy', () => {
  test('RSS 2.0 per language and a sitemap with hreflang alternates for a translated pair', async () => {
    const en = await publish({ title: 'Static sites in English & more' })
    const zh = await publish(publishableZhPost(stack.categoryId, stack.authorId, { title: '静态网站生成器怎么选', alternateSlug: en.slug }))
    const rss = parse(await listed(`${B}/rss.xml?language=zh`))
    const channel = all(rss, 'channel')[0]!
    expect(all(rss, 'rss')[0]!.attributes?.version).toBe('2.0')
    expect(all(channel, 'atom:link')[0]!.attributes).toMatchObject({
      rel: 'self',
      href: 'https://blog.example.org/api/v1/blog/rss.xml?language=zh',
    })
    const items = all(channel, 'item')
    expect(items.map((i) => textOf(all(i, 'link')[0]))).toContain(`https://blog.example.org/cn/blog/${zh.slug}`)
    expect(items.map((i) => textOf(all(i, 'link')[0]))).not.toContain(`https://blog.example.org/en/blog/${en.slug}`)
    for (const item of items) {
      expect(textOf(all(item, 'pubDate')[0])).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
      expect(all(item, 'guid')).toHaveLength(1)
      expect(all(item, 'category').length).toBeGreaterThan(0)
    }
    const enTitles = all(parse(await listed(`${B}/rss.xml`)), 'title').map(textOf)
    expect(enTitles).toContain('Static sites in English & more')

    const sitemap = parse(await listed(`${B}/sitemap.xml`))
    const urlset = all(sitemap, 'urlset')[0]!
    expect(urlset.attributes).toEqual({
      xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9',
      'xmlns:xhtml': 'http://www.w3.org/1999/xhtml',
    })
    const url = (loc: string) => all(urlset, 'url').find((u) => textOf(all(u, 'loc')[0]) === loc)!
    for (const loc of [`https://blog.example.org/en/blog/${en.slug}`, `https://blog.example.org/cn/blog/${zh.slug}`]) {
      const entry = url(loc)
      expect(textOf(all(entry, 'lastmod')[0])).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
      expect(all(entry, 'xhtml:link').map((l) => l.attributes)).toEqual([
        { rel: 'alternate', hreflang: 'en', href: `https://blog.example.org/en/blog/${en.slug}` },
        { rel: 'alternate', hreflang: 'zh', href: `https://blog.example.org/cn/blog/${zh.slug}` },
        { rel: 'alternate', hreflang: 'x-default', href: `https://blog.example.org/en/blog/${en.slug}` },
      ])
    }
    expect(await listed(`${B}/robots.txt`)).toContain('Sitemap: https://blog.example.org/api/v1/blog/sitemap.xml')
  })
})
