import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { E0, Z0 } from '../../src/modules/seo/worked-examples.ts'
import { bucketOf, bucketUrl } from '../../src/modules/site-search/shards.ts'
import { launchChromium } from '../support/chromium.ts'
import { publishablePost, publishableZhPost, publishNewPost } from '../support/fixtures.ts'
import { fromDisk, startStack, type Stack } from '../publishing/stack.ts'
import { until } from '../support/until.ts'

// One server behind Caddy, one browser: the API's search and the site's static search, in English
// and in Chinese, a two-character word inside a longer phrase included.
let s: Stack
let browser: Browser
const slugs = { bakery: '', generator: '', library: '', plain: '' }
beforeAll(async () => {
  s = await startStack()
  browser = await launchChromium()
  const { token, categoryId, authorId } = s
  const publish = async (post: Record<string, unknown>) => {
    await publishNewPost(s.folio, token, post)
    return post.slug as string
  }
  slugs.bakery = await publish(publishablePost(categoryId, authorId, { title: `${E0.title} for a Bakery` }))
  slugs.generator = await publish(publishablePost(categoryId, authorId))
  slugs.library = await publish(publishableZhPost(categoryId, null, { title: `${Z0.title}：图书馆篇` }))
  slugs.plain = await publish(publishableZhPost(categoryId, null))
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await s?.dispose()
})

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

describe('search', () => {
  test('the API ranks and segments: a title word, a Chinese word inside a phrase, bad input refused', async () => {
    const search = async (q: string, language?: string) => {
      const answer = await s.folio.call('GET', `/api/v1/blog/search?q=${encodeURIComponent(q)}${language ? `&language=${language}` : ''}`)
      expect(answer.body.code).toBe('0000')
      return answer.body.data.records.map((r: { slug: string }) => r.slug)
    }
    expect(await search('bakery')).toEqual([slugs.bakery])
    expect(await search('书馆', 'zh')).toEqual([slugs.library])
    expect((await search('网站', 'zh')).sort()).toEqual([slugs.library, slugs.plain].sort())
    expect(await search('网站', 'en')).toEqual([])
    const empty = await s.folio.call('GET', '/api/v1/blog/search?q=')
    expect(empty.status).toBe(400)
    expect(JSON.stringify(empty.body)).toContain('q')
    // The keyword filter (spec §4.2) ranks the title hit first.
    const keyword = await s.folio.call('GET', `/api/v1/blog/posts?keyword=${encodeURIComponent('bakery generator')}`)
    expect(keyword.body.data.records.map((r: { slug: string }) => r.slug)).toEqual([slugs.bakery])
  })

  test('the index files and pages come off disk through Caddy with their types', async () => {
    const manifest = await s.viaCaddy('/search/en/index.json')
    expect(fromDisk(manifest)).toBe(true)
    expect(manifest.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect((await manifest.json()).segments).toEqual([0])
    const page = await s.viaCaddy('/cn/search')
    expect(fromDisk(page)).toBe(true)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const script = await s.viaCaddy('/search/search.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
  })

  test('in Chromium: type, press Enter, read the results; in English and in Chinese; axe-clean', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } })
    const page = await context.newPage()
    const problems: string[] = []
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
    page.on('pageerror', (e) => problems.push(e.message))
    const results = () => page.locator('#search-results a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))

    await page.goto(`${s.caddy.url}/en/search`)
    await page.getByRole('searchbox', { name: 'Search the posts' }).fill('Bakery')
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: '1 posts found.' }).waitFor()
    expect(await results()).toEqual([`/en/blog/${slugs.bakery}`])
    expect(new URL(page.url()).searchParams.get('q')).toBe('Bakery')
    await page.evaluate(AXE)
    const violations = await page.evaluate(async () => (await (globalThis as any).axe.run(document)).violations)
    expect(violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])

    // A link with ?q= runs the search on load; the prefix of the last word matches ("generat").
    await page.goto(`${s.caddy.url}/en/search?q=static+generat`)
    await page.getByRole('status').filter({ hasText: '2 posts found.' }).waitFor()

    await page.goto(`${s.caddy.url}/cn/search`)
    await page.getByRole('searchbox', { name: '搜索文章' }).fill('书馆')
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: '找到 1 篇文章。' }).waitFor()
    expect(await results()).toEqual([`/cn/blog/${slugs.library}`])
    await page.getByRole('searchbox').fill('没有这个词语')
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: '没有找到文章。' }).waitFor()
    expect(await results()).toEqual([])
    expect(problems).toEqual([])
    await context.close()
  }, 60_000)
  test('after an upgrade the server answers before its search catch-up, which then fills the API and the site index', async () => {
    // As after the upgrade that added search: nothing indexed, and a title changed behind the API's back.
    await s.folio.stop()
    const db = new Database(join(s.folio.dataDir, 'folio.db'))
    db.run('delete from post_search')
    db.run('delete from post_search_state')
    db.run("update posts set title = title || ' Zeppelin' where slug = ?", [slugs.bakery])
    db.close()
    // The test hook holds the catch-up before its first slice until SIGUSR2 (search/catch-up.ts).
    s.folio.env.FOLIO_TEST_HOLD_SEARCH_CATCH_UP = '1'
    await s.folio.restart()
    delete s.folio.env.FOLIO_TEST_HOLD_SEARCH_CATCH_UP
    const bucket = bucketUrl('en', 0, bucketOf('zeppelin'))
    const search = async (q: string) =>
      (await s.folio.call('GET', `/api/v1/blog/search?q=${q}`)).body.data.records.map((r: { slug: string }) => r.slug)
    const health = async () => (await s.folio.call('GET', '/healthz')).body.data.search

    expect((await s.folio.call('GET', '/healthz')).status).toBe(200)
    const held = await health()
    expect(held.state).toBe('waiting')
    expect(held.pending).toBeGreaterThanOrEqual(4)
    expect(held.indexed).toBe(0)
    expect(await search('zeppelin')).toEqual([])
    expect(await (await s.viaCaddy(bucket)).text()).not.toContain('zeppelin')

    s.folio.process().kill('SIGUSR2')
    // Polled until it ends, whichever way: the check below says which.
    await until(async () => !['waiting', 'running'].includes((await health()).state), 'the search catch-up to end')
    expect(await health()).toEqual({ state: 'done', pending: 0, indexed: held.pending })
    await s.folio.rendered()
    expect(await search('zeppelin')).toEqual([slugs.bakery])
    expect(await (await s.viaCaddy(bucket)).text()).toContain('zeppelin')
  }, 60_000)
})
