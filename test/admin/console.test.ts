import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import corpus from '../security/corpus/html.json'
import { startCaddy, type Caddy } from '../support/caddy.ts'
import { launchChromium } from '../support/chromium.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { axeViolations, watchForPayloads } from './browser.ts'
import { createUser, printedSetupUrl } from './support.ts'
import { startReceiver } from '../webhooks/receiver.ts'

// The console in Chromium (docs/admin.md): one server, one browser, one Caddy. First run, sign-in,
// the dashboard, comment moderation with the hostile corpus, roles, languages, axe-core, and the
// screenshots docs/admin.md shows (written when SCREENSHOTS=1).
setDefaultTimeout(120_000)
const SHOTS = resolve(import.meta.dir, '../../docs/screenshots')
const OWNER = { name: 'Olive Owner', email: 'olive@example.org', password: 'a long and private passphrase' }

let folio: Folio
let browser: Browser
let caddy: Caddy
let context: BrowserContext
let page: Page
let token: string

async function shot(name: string, width = 1280) {
  if (process.env.SCREENSHOTS !== '1') return
  mkdirSync(SHOTS, { recursive: true })
  await page.setViewportSize({ width, height: 900 })
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })
}

beforeAll(async () => {
  folio = await startFolio({ TRUST_PROXY: '1', WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_DELAYS: '50ms' })
  ;[browser, caddy] = await Promise.all([launchChromium(), startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })])
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  page = await context.newPage()
})
afterAll(async () => {
  await browser?.close()
  await caddy?.stop()
  await folio?.dispose()
})

describe('first run', () => {
  test('/admin/setup without the code refuses; with it, the owner is made and lands on the dashboard', async () => {
    await page.goto(`${folio.url}/admin/setup`)
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not valid')
    await page.goto(printedSetupUrl(folio))
    await expect(page.getByText('SITE_URL names this machine').textContent()).resolves.toContain('localhost')
    await shot('admin-setup')
    await page.getByLabel('Publication name (English)').fill('Field Notes')
    await page.getByLabel('Publication name (Chinese)').fill('田野笔记')
    await page.getByLabel('Your name').fill(OWNER.name)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Create owner account' }).click()
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
    expect(page.url()).toBe(`${folio.url}/admin/`)
    const checklist = page.getByRole('region', { name: 'Setup checklist' })
    await expect(checklist.locator('li.done').textContent()).resolves.toBe('Done Name the site')
    expect(await checklist.locator('li.todo').count()).toBe(6)
  })
})

describe('the shell', () => {
  test('the page holds its CSP (no inline script), answers private, no-store, and is the same through Caddy', async () => {
    for (const base of [folio.url, caddy.url]) {
      const response = await fetch(`${base}/admin/`)
      const html = await response.text()
      expect(response.headers.get('cache-control')).toBe('private, no-store')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
      const script = /src="(\/admin\/assets\/console\.[A-Za-z0-9]{12}\.js)"/.exec(html)![1]!
      const asset = await fetch(`${base}${script}`)
      expect(asset.headers.get('content-type')).toContain('javascript')
      expect(asset.headers.get('cache-control')).toBe('private, no-store')
    }
    expect((await fetch(`${caddy.url}/admin`)).headers.get('content-security-policy')).toContain("script-src 'self'")
  })

  test('the dashboard shows health and counts, has no serious axe violation, and works at 375 px', async () => {
    token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
    await page.goto(`${folio.url}/admin/`)
    const health = page.getByRole('region', { name: 'Health' })
    await health.getByText('All public pages are current.').waitFor()
    await expect(page.getByRole('region', { name: 'Counts' }).textContent()).resolves.toContain('Pending comments')
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-dashboard')
    await shot('admin-dashboard-375', 375)
    await page.setViewportSize({ width: 375, height: 800 })
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  test('the language is the owner’s choice, remembered', async () => {
    await page.getByLabel('Language').selectOption('zh')
    await page.getByRole('heading', { name: '概览' }).waitFor()
    await page.reload()
    await page.getByRole('link', { name: '评论' }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN')
    expect(await axeViolations(page)).toEqual([])
    await page.getByLabel('语言').selectOption('en')
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
  })

  test('keyboard: the skip link and the navigation reach the pages', async () => {
    await page.goto(`${folio.url}/admin/`)
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
    await page.keyboard.press('Tab')
    await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Skip to content')
    await page.getByRole('link', { name: 'Comments' }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Comments' }).waitFor()
  })
})

describe('comment moderation', () => {
  let postId: number
  test('the hostile corpus renders inert on every page of the queue, with no serious axe violation', async () => {
    const taxonomy = await seedTaxonomy(folio, token)
    const post = await publishNewPost(folio, token, publishablePost(taxonomy.categoryId, taxonomy.authorId))
    postId = post.id
    for (const [i, payload] of corpus.entries()) {
      const sent = await folio.call('POST', `/api/v1/blog/posts/${postId}/comments`, {
        body: { authorName: payload.slice(0, 80), authorEmail: `reader${i}@example.org`, content: payload },
        headers: { 'x-forwarded-for': `10.9.${i}.1`, 'user-agent': `<script>window.__pwned('ua-${i}')</script>` },
      })
      expect(sent.body.code).toBe('0000')
    }
    const hostile = await context.newPage()
    const hits = await watchForPayloads(hostile)
    const previous = page
    page = hostile
    await page.goto(`${folio.url}/admin/comments`)
    await page.getByLabel('Show').selectOption('')
    await page.getByRole('button', { name: 'Next page' }).waitFor()
    expect(await page.locator('li.comment').count()).toBe(20)
    // Every payload is shown as the text it is.
    await expect(page.locator('li.comment .content').first().textContent()).resolves.toBe(corpus.at(-1)!)
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-comments')
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.getByText(`${corpus[0]!}`, { exact: true }).first().waitFor()
    await page.waitForTimeout(300)
    expect(hits).toEqual([])
    await page.close()
    page = previous
  })

  test('approve shows the comment on the public post; spam records why; bulk rejects', async () => {
    await page.goto(`${folio.url}/admin/comments`)
    const first = page.locator('li.comment').first()
    const id = Number((await first.getByRole('checkbox').getAttribute('id'))!.replace('select-', ''))
    await first.getByRole('button', { name: 'Approve' }).click()
    // The queue shows pending comments: the approved one leaves it once the list is read again.
    await page.locator(`#select-${id}`).waitFor({ state: 'detached' })
    await page.locator('li.comment').first().waitFor()
    const engagement = await folio.call('GET', `/api/v1/blog/posts/${postId}/engagement`)
    expect(engagement.body.data.comments.map((c: { id: number }) => c.id)).toContain(id)
    const second = page.locator('li.comment').first()
    const spamId = Number((await second.getByRole('checkbox').getAttribute('id'))!.replace('select-', ''))
    expect(spamId).not.toBe(id)
    await second.getByRole('button', { name: 'Spam' }).click()
    await page.getByLabel('Show').selectOption('2')
    await page.getByText('marked as spam by a moderator').first().waitFor()
    await page.getByLabel('Show').selectOption('0')
    const pending = async () => Number(/of (\d+) comments/.exec((await folio.cli('comments', 'list')).stderr)![1])
    const before = await pending()
    const boxes = page.getByRole('checkbox')
    await boxes.nth(0).check()
    await boxes.nth(1).check()
    await page.getByRole('button', { name: 'Reject selected' }).click()
    await page.waitForFunction(() => document.querySelectorAll('input[type=checkbox]:checked').length === 0)
    expect(await pending()).toBe(before - 2)
  })
})

describe('tokens', () => {
  test('a token created in the console calls the API and shows in its call log; rotate and revoke', async () => {
    await page.goto(`${folio.url}/admin/tokens`)
    await page.getByLabel('Token name').fill('console-agent')
    await page.getByRole('checkbox', { name: 'blog:write' }).check()
    await page.getByRole('button', { name: 'Create token' }).click()
    await page.getByText('it is shown only once').waitFor()
    const plain = await page.getByLabel('New token').inputValue()
    expect(plain).toMatch(/^folio_/)
    await folio.call('GET', '/api/admin/blog/comments', { token: plain })
    await folio.call('POST', '/api/v1/blog/tags/save', {
      token: plain,
      body: { nameEn: 'From console', nameZh: '控制台', language: 'all' },
    })
    const card = page.getByRole('listitem', { name: 'console-agent' })
    await expect(card.locator('code').textContent()).resolves.toMatch(/^folio_[a-z0-9]{12}_\*+$/)
    await card.getByRole('button', { name: 'Show calls' }).click()
    const log = page.getByRole('region', { name: 'Call log: console-agent' })
    await log.getByText('/api/v1/blog/tags/save').waitFor()
    await log.getByLabel('Outcome').selectOption('failed')
    await log.getByText('/api/v1/blog/tags/save').waitFor({ state: 'detached' })
    await log.getByText('FORBIDDEN').waitFor()
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-tokens')
    await card.getByRole('button', { name: 'Rotate' }).click()
    await page.waitForFunction((old) => (document.getElementById('issued-token') as HTMLInputElement).value !== old, plain)
    const rotated = await page.getByLabel('New token').inputValue()
    const old = await folio.call('POST', '/api/v1/blog/tags/save', { token: plain, body: { nameEn: 'Old', nameZh: '旧', language: 'all' } })
    expect(old.text).toContain('UNAUTHORIZED')
    expect(
      (await folio.call('POST', '/api/v1/blog/tags/save', { token: rotated, body: { nameEn: 'Rotated', nameZh: '轮换', language: 'all' } }))
        .body.code,
    ).toBe('0000')
    const fresh = page.getByRole('listitem', { name: 'console-agent' }).last()
    await fresh.getByRole('button', { name: 'Revoke' }).click()
    await page.waitForFunction(() =>
      [...document.querySelectorAll('li[aria-label="console-agent"]')].every((li) => !li.textContent!.includes('Revoke')),
    )
    const revoked = await folio.call('POST', '/api/v1/blog/tags/save', {
      token: rotated,
      body: { nameEn: 'Late', nameZh: '晚', language: 'all' },
    })
    expect(revoked.text).toContain('UNAUTHORIZED')
  })
})

describe('webhooks', () => {
  test('a receiver added in the console, its failing delivery shown and redelivered', async () => {
    const receiver = startReceiver(() => new Response('down for maintenance', { status: 500 }))
    try {
      await page.goto(`${folio.url}/admin/webhooks`)
      await page.getByLabel('Receiver URL').fill(receiver.url('/hook'))
      await page.getByRole('checkbox', { name: 'blog.*' }).uncheck()
      await page.getByRole('checkbox', { name: 'blog.comment.created' }).check()
      await page.getByRole('button', { name: 'Add receiver' }).click()
      await page.getByText('shown only once').waitFor()
      expect(await page.getByLabel('Signing secret').inputValue()).toMatch(/^[0-9a-f]{64}$/)
      const posts = await folio.call('GET', '/api/v1/blog/posts?language=en')
      const postId = posts.body.data.records[0].id
      await folio.call('POST', `/api/v1/blog/posts/${postId}/comments`, {
        body: { authorName: 'Hook', content: 'Tell the owner.' },
        headers: { 'x-forwarded-for': '10.200.0.1' },
      })
      await receiver.waitFor('/hook', 2)
      await page.getByLabel('Show').selectOption('failed')
      const failed = page.getByRole('listitem', { name: /^Delivery \d+$/ }).first()
      await failed.getByText('HTTP 500 down for maintenance').waitFor()
      expect(await axeViolations(page)).toEqual([])
      await shot('admin-webhooks')
      await failed.getByRole('button', { name: 'Redeliver' }).click()
      await receiver.waitFor('/hook', 3)
    } finally {
      receiver.stop()
    }
  })
})

describe('pages', () => {
  test('a page made in the console, published from its list, is served on the site', async () => {
    await page.goto(`${folio.url}/admin/pages`)
    await page.getByLabel('Title', { exact: true }).fill('About the console')
    await page.getByLabel('Slug (blank: from the title)').fill('about-console')
    await page.getByLabel('Body (Markdown)').fill('We write **notes**.')
    await page.getByLabel('Navigation', { exact: true }).selectOption('footer')
    await page.getByRole('button', { name: 'Save draft' }).click()
    await page.getByRole('button', { name: 'Publish About the console' }).click()
    await page.getByRole('button', { name: 'Unpublish About the console' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
    // Rendered, not settled: the comments approved above leave engagement refreshes due in a minute.
    await folio.rendered()
    const html = await (await fetch(`${folio.url}/en/about-console`)).text()
    expect(html).toContain('<strong>notes</strong>')
  })
})

describe('sign-in and roles', () => {
  test('sign out, a wrong password named plainly, then sign in through Caddy', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    await page.goto(`${caddy.url}/admin/`)
    await page.getByLabel('Email').fill(OWNER.email)
    await page.getByLabel('Password').fill('not the password at all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong email or password')
    expect(await axeViolations(page)).toEqual([])
    await shot('admin-sign-in')
    await page.getByLabel('Password').fill(OWNER.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
    const cookie = (await context.cookies(caddy.url)).find((c) => c.name === 'folio_session')!
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' })
  })

  test('an author sees no Comments link, and the page’s API refuses them', async () => {
    await createUser(folio, { email: 'ann@example.org', name: 'Ann', role: 'author', password: 'authors write long texts' })
    const other = await browser.newContext()
    const ann = await other.newPage()
    await ann.goto(`${folio.url}/admin/comments`)
    await ann.getByLabel('Email').fill('ann@example.org')
    await ann.getByLabel('Password').fill('authors write long texts')
    await ann.getByRole('button', { name: 'Sign in' }).click()
    await ann.getByRole('heading', { name: 'Dashboard' }).waitFor()
    expect(await ann.getByRole('link', { name: 'Comments' }).count()).toBe(0)
    const status = await ann.evaluate(`fetch('/api/admin/blog/comments').then((r) => r.status)`)
    expect(status).toBe(403)
    await other.close()
  })
})
