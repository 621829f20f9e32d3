import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { xml2js, type Element } from 'xml-js'
import { cacheFiles, fromDisk } from '../publishing/stack.ts'
import { startSiteWorld, type SiteWorld } from './world.ts'

/** SITEMAP_SHARD_SIZE 2: the small world's home, category, tag, author and product pages need many pages shards. */
const SIZE = 2
let w: SiteWorld
beforeAll(async () => {
  w = await startSiteWorld({ SITEMAP_SHARD_SIZE: String(SIZE) })
}, 120_000)
afterAll(async () => {
  await w?.dispose()
})

const local = (url: string) => url.replace(w.caddy.url, '')
const locsOf = (xml: string): string[] => {
  const found: string[] = []
  const visit = (e: Element) => {
    if (e.name === 'loc') found.push(String(e.elements?.[0]?.text ?? ''))
    for (const child of e.elements ?? []) visit(child)
  }
  visit(xml2js(xml) as Element)
  return found
}

/** Each shard the index lists, with the page URLs it holds, read through Caddy. */
async function shards(): Promise<Map<string, string[]>> {
  const index = await w.viaCaddy('/sitemap.xml')
  expect(index.status).toBe(200)
  const out = new Map<string, string[]>()
  for (const shard of locsOf(await index.text())) {
    const response = await w.viaCaddy(local(shard))
    expect({ shard, status: response.status, type: response.headers.get('content-type') }).toEqual({
      shard,
      status: 200,
      type: 'application/xml; charset=utf-8',
    })
    expect(fromDisk(response)).toBe(true)
    out.set(local(shard), locsOf(await response.text()))
  }
  return out
}

const pagesShardOf = (all: Map<string, string[]>, url: string) =>
  [...all].find(([name, locs]) => name.startsWith('/sitemap/pages-') && locs.includes(url))?.[0]

async function expectRebuildChangesNothing() {
  await w.folio.settled()
  const files = cacheFiles(w.folio.cacheDir)
  const out = await w.folio.cli('rebuild')
  expect(out.stdout).toMatch(/ 0 written, 0 removed/)
  expect(cacheFiles(w.folio.cacheDir)).toEqual(files)
}

describe('the pages sitemap in shards of SITEMAP_SHARD_SIZE', () => {
  test('the index lists several pages shards, none over the size, and every <loc> is a 200 HTML page from the API and from disk', async () => {
    const all = await shards()
    const pages = [...all.keys()].filter((name) => name.startsWith('/sitemap/pages-'))
    expect(pages.length).toBeGreaterThan(1)
    expect(pages[0]).toBe('/sitemap/pages-1.xml')
    expect(all.get('/sitemap/pages-1.xml')).toEqual([`${w.caddy.url}/en/`, `${w.caddy.url}/cn/`])
    const locs = [...all.values()].flat()
    expect(locs).toContain(`${w.caddy.url}/en/tag/${w.tag.slug}/`)
    expect(locs).toContain(`${w.caddy.url}/en/category/${w.category.slug}/`)
    expect(locs).toContain(`${w.caddy.url}/en/author/${w.author.slug}/`)
    expect(locs).toContain(`${w.caddy.url}/en/products/${w.productIds['H-100']}-studio-headphones`)
    expect(new Set(locs).size).toBe(locs.length)
    for (const [name, shardLocs] of all) expect({ name, n: shardLocs.length <= SIZE }).toEqual({ name, n: true })
    for (const loc of locs) {
      for (const response of [await w.viaApi(local(loc)), await w.viaCaddy(local(loc))]) {
        expect({ loc, status: response.status }).toEqual({ loc, status: 200 })
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      }
    }
    expect((await w.viaApi('/sitemap/pages.xml')).status).toBe(404)
    await expectRebuildChangesNothing()
  }, 60_000)

  test('a new author or tag gets a shard of its own; disabled, the last page of that shard takes the shard off disk and out of the index', async () => {
    const author = (
      await w.folio.call('POST', '/api/v1/blog/authors/save', {
        token: w.token,
        body: { name: 'Shard Keeper', language: 'en', bio: 'Keeps shards.' },
      })
    ).body.data
    const tag = (await w.folio.call('POST', '/api/v1/blog/tags/save', { token: w.token, body: { nameEn: 'Lonely tag', language: 'en' } }))
      .body.data
    const authorUrl = `${w.caddy.url}/en/author/${author.slug}/`
    const tagUrl = `${w.caddy.url}/en/tag/${tag.slug}/`
    let all = await shards()
    const authorShard = pagesShardOf(all, authorUrl)!
    const tagShard = pagesShardOf(all, tagUrl)!
    expect(all.get(authorShard)).toEqual([authorUrl])
    expect(all.get(tagShard)).toEqual([tagUrl])
    await expectRebuildChangesNothing()

    const disabled = await Promise.all([
      w.folio.call('POST', '/api/v1/blog/authors/save', {
        token: w.token,
        body: { id: author.id, name: 'Shard Keeper', language: 'en', status: 0 },
      }),
      w.folio.call('POST', '/api/v1/blog/tags/save', {
        token: w.token,
        body: { id: tag.id, nameEn: 'Lonely tag', language: 'en', status: 0 },
      }),
    ])
    for (const answer of disabled) expect(answer.body.code).toBe('0000')
    all = await shards()
    for (const shard of [authorShard, tagShard]) {
      expect({ shard, listed: all.has(shard) }).toEqual({ shard, listed: false })
      expect(existsSync(join(w.folio.cacheDir, shard.slice(1), '@'))).toBe(false)
      expect((await w.viaCaddy(shard)).status).toBe(404)
      expect((await w.viaApi(shard)).status).toBe(404)
    }
    expect(pagesShardOf(all, `${w.caddy.url}/en/author/${w.author.slug}/`)).toBeDefined()
    await expectRebuildChangesNothing()
  }, 60_000)
})
