import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../support/chromium.ts'
import { startSiteWorld, type SiteWorld } from './world.ts'

/** The docs' screenshots are refreshed on request (`FOLIO_SCREENSHOTS=1`); otherwise they go to a temp folder. */
const SCREENSHOTS = process.env.FOLIO_SCREENSHOTS
  ? resolve(import.meta.dir, '..', '..', 'docs', 'screenshots')
  : mkdtempSync(join(tmpdir(), 'folio-screenshots-'))

let w: SiteWorld
let browser: Browser
beforeAll(async () => {
  w = await startSiteWorld()
  browser = await launchChromium()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await w?.dispose()
})

/** A page opened through Caddy, with every console error and failed request recorded; nothing may leave loopback. */
async function open(path: string, options: { expectStatus?: number } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
  const page = await context.newPage()
  const problems: string[] = []
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => {
    problems.push(`left loopback: ${route.request().url()}`)
    return route.abort()
  })
  page.on('console', (m) => {
    // The 404 page's own status is reported as a console error by Chromium; it is what we asked for.
    if (m.type() === 'error' && !(options.expectStatus === 404 && /404 \(Not Found\)/.test(m.text()))) problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`))
  page.on('response', (r) => {
    if (r.status() >= 400 && !(r.url() === `${w.caddy.url}${path}` && r.status() === options.expectStatus))
      problems.push(`${r.status()}: ${r.url()}`)
  })
  const response = await page.goto(`${w.caddy.url}${path}`, { waitUntil: 'networkidle' })
  expect(response?.status()).toBe(options.expectStatus ?? 200)
  return { page, problems, close: () => context.close() }
}

async function jsonLd(page: Page): Promise<any[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents()
  return texts.map((t) => JSON.parse(t))
}

/** canonical and hreflang links resolve to 200 HTML pages. */
async function expectLinksResolve(page: Page) {
  const hrefs = await page
    .locator('link[rel="canonical"], link[rel="alternate"][hreflang]')
    .evaluateAll((els) => els.map((e) => (e as HTMLLinkElement).href))
  for (const href of hrefs) {
    const response = await fetch(href)
    expect({ href, status: response.status, type: response.headers.get('content-type') }).toEqual({
      href,
      status: 200,
      type: 'text/html; charset=utf-8',
    })
  }
  return hrefs
}

/** axe-core's engine, evaluated in the page (through the DevTools protocol, so the page CSP does not apply). */
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

describe('the site in a real browser (Chromium through Caddy)', () => {
  test('axe finds no serious or critical violation on every page type, on a phone and a desktop, light and dark', async () => {
    const paths = [
      '/en/',
      '/en/blog/choose-a-generator',
      '/cn/blog/xuanze-shengchengqi',
      `/en/category/${w.category.slug}/`,
      `/cn/tag/${w.tag.slug}/`,
      `/en/author/${w.author.slug}/`,
      '/en/search',
    ]
    const found: string[] = []
    for (const [width, colorScheme] of [
      [375, 'light'],
      [375, 'dark'],
      [1280, 'light'],
      [1280, 'dark'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme })
      const page = await context.newPage()
      for (const path of paths) {
        await page.goto(`${w.caddy.url}${path}`)
        await page.evaluate(AXE)
        const violations: { id: string; impact: string; nodes: { target: string[] }[] }[] = await page.evaluate(
          async () => (await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })).violations,
        )
        for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
          found.push(`${width} ${colorScheme} ${path}: ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
      }
      await context.close()
    }
    expect(found).toEqual([])
  }, 120_000)

  test('home, a list, a tag page and a product page load cleanly', async () => {
    for (const path of [
      '/',
      '/en/',
      '/cn/',
      `/en/category/${w.category.slug}/`,
      `/cn/tag/${w.tag.slug}/`,
      `/en/products/${w.productIds['H-100']}-studio-headphones`,
    ]) {
      const { page, problems, close } = await open(path)
      expect({ path, problems }).toEqual({ path, problems: [] })
      expect(await page.locator('h1').count()).toBe(1)
      expect(await page.locator('main').count()).toBe(1)
      if (path !== '/') await expectLinksResolve(page)
      if (path.includes('/products/')) {
        const [product] = await jsonLd(page)
        expect(product['@type']).toBe('Product')
        expect(product.name).toBe(await page.locator('h1').textContent())
        expect(product.offers.price).toBe('129.99')
      }
      await close()
    }
  }, 120_000)

  test('the 404 page is a real page', async () => {
    const { page, problems, close } = await open('/en/blog/not-a-post', { expectStatus: 404 })
    expect(problems).toEqual([])
    expect(await page.locator('h1').textContent()).toBe('Page not found')
    await close()
  })

  test('post pages in both languages: TOC anchors, head links, JSON-LD, and a clap and a comment from the page', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    for (const [path, language, post] of [
      ['/en/blog/choose-a-generator', 'en', w.en],
      ['/cn/blog/xuanze-shengchengqi', 'zh', w.zh],
    ] as const) {
      const { page, problems, close } = await open(path)
      const anchors = await page.locator('.toc a').evaluateAll((els) => els.map((e) => e.getAttribute('href')!))
      expect(anchors.length).toBe(post.toc.length)
      for (const anchor of anchors) expect(await page.locator(`[id="${decodeURIComponent(anchor.slice(1))}"]`).count()).toBe(1)
      const hrefs = await expectLinksResolve(page)
      expect(hrefs).toContain(`${w.caddy.url}/en/blog/choose-a-generator`)
      expect(hrefs).toContain(`${w.caddy.url}/cn/blog/xuanze-shengchengqi`)
      const ld = await jsonLd(page)
      expect(ld.map((d) => d['@type'])).toEqual(['BlogPosting', 'FAQPage', 'BreadcrumbList'])
      expect(ld[0].headline).toBe(await page.locator('h1').textContent())
      expect(ld[0].inLanguage).toBe(language === 'zh' ? 'zh-CN' : 'en')
      expect(ld[0].image).toBe(post.coverImage.replace(/\.png$/, '-1.png'))
      expect(await page.locator('.cover img').getAttribute('alt')).toBe(post.coverAlt)
      expect(ld[1].mainEntity.map((q: any) => q.name)).toEqual(await page.locator('.faq summary').allTextContents())
      // Lazy images below the fold load before a full-page screenshot.
      await page.locator('img').evaluateAll((imgs) => imgs.forEach((img) => ((img as HTMLImageElement).loading = 'eager')))
      await page.waitForLoadState('networkidle')
      await page.screenshot({ path: resolve(SCREENSHOTS, `post-${language}.png`), fullPage: true })

      // Claps: the count on the page follows the live endpoint.
      await page.locator('[data-clap]').click()
      await page.locator('[data-claps]', { hasText: /^1$/ }).waitFor()
      // A comment: accepted by the API (it awaits moderation), the page says so.
      await page.locator('input[name="authorName"]').fill('Reader')
      await page.locator('textarea[name="content"]').fill(language === 'zh' ? '写得很好，谢谢分享。' : 'Clear and useful, thank you.')
      await page.locator('form button[type="submit"]').click()
      await page.locator('.status', { hasText: language === 'zh' ? '评论已收到' : 'comment was received' }).waitFor()
      const queue = await w.folio.call('GET', `/api/admin/blog/comments?postId=${post.id}`, { token: w.admin })
      expect(queue.body.data.records.map((c: any) => c.authorName)).toEqual(['Reader'])
      const live = await w.folio.call('GET', `/api/v1/blog/posts/${post.id}/engagement`)
      expect(live.body.data.clapCount).toBe(1)
      expect(problems).toEqual([])
      await close()
    }
  }, 120_000)

  test('with JavaScript off, a post page still reads whole and shows its counts', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${w.caddy.url}/en/blog/choose-a-generator`)
    expect(await page.locator('.content h2').count()).toBeGreaterThan(0)
    expect(await page.locator('[data-claps]').isVisible()).toBe(true)
    expect(await page.locator('[data-clap]').isVisible()).toBe(false)
    await context.close()
  })
})
