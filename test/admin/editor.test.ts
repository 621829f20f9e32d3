import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { E0, Z0 } from '../../src/modules/seo/worked-examples.ts'
import corpus from '../security/corpus/html.json'
import { png } from '../media/fixtures.ts'
import { launchChromium } from '../support/chromium.ts'
import { seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { axeViolations, watchForPayloads } from './browser.ts'
import { consoleClient, createUser, printedSetupUrl } from './support.ts'
import { WAIT_LIMIT_MS } from '../support/until.ts'

// The editor in Chromium (docs/editor.md): one server, one browser. An English post from an empty
// form to published, its Chinese translation and the live hreflang pair, a conflict between two
// contexts, a closed tab's draft, an author who cannot publish, hostile text, axe-core.
setDefaultTimeout(60_000)
const SHOTS = resolve(import.meta.dir, '../../docs/img')
const OWNER = { email: 'olive@example.org', password: 'a long and private passphrase' }
const AUTHOR = { email: 'arthur@example.org', name: 'Arthur Author', role: 'author', password: 'another long private passphrase' }

let folio: Folio
let browser: Browser
let owner: BrowserContext
let page: Page
let categoryName: string
let enId: number
let enSlug: string
let zhId: number

/** A browser context signed in as `who` (the session cookie from the sign-in route); the console speaks `locale`'s language. */
async function signedInContext(who: { email: string; password: string }, locale = 'en-US') {
  const client = consoleClient(folio)
  const answer = await client.call('POST', '/admin/api/sign-in', { email: who.email, password: who.password })
  expect(answer.body.code).toBe('0000')
  const [name, value] = client.cookie.split('=') as [string, string]
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale })
  await context.addCookies([{ name, value, url: folio.url }])
  // Each step's ceiling (Chromium beside a server and another test file on two cores), not a speed check.
  context.setDefaultTimeout(WAIT_LIMIT_MS)
  return context
}

/** docs/editor.md's pictures: the English post in an English console, the Chinese one (and the list) in a Chinese console. */
async function screenshots() {
  mkdirSync(SHOTS, { recursive: true })
  await page.goto(`${folio.url}/admin/editor?id=${enId}`)
  await page.getByTestId('seo-score').waitFor()
  await page.screenshot({ path: `${SHOTS}/editor.png` })
  const zh = await signedInContext(OWNER, 'zh-CN')
  const p = await zh.newPage()
  await p.goto(`${folio.url}/admin/editor?id=${zhId}`)
  await p.getByTestId('seo-score').waitFor()
  await p.screenshot({ path: `${SHOTS}/editor-zh.png` })
  await p.goto(`${folio.url}/admin/posts`)
  await p.getByRole('row').filter({ hasText: Z0.title }).waitFor()
  await p.screenshot({ path: `${SHOTS}/posts-zh.png` })
  await zh.close()
}

const score = (p: Page) => p.getByTestId('seo-score').textContent().then(Number)
const checked = (p: Page) => p.getByRole('complementary', { name: 'SEO/AEO check' }).getByText('Checking…').waitFor({ state: 'detached' })

beforeAll(async () => {
  folio = await startFolio()
  browser = await launchChromium()
  const setup = new URL(printedSetupUrl(folio))
  const client = consoleClient(folio)
  const made = await client.call('POST', '/admin/api/setup', {
    code: setup.searchParams.get('code'),
    nameEn: 'Field Notes',
    nameZh: '田野笔记',
    ownerName: 'Olive Owner',
    ...OWNER,
  })
  expect(made.body.code).toBe('0000')
  expect((await createUser(folio, AUTHOR)).code).toBe(0)
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId } = await seedTaxonomy(folio, token)
  categoryName = (await folio.call('GET', '/api/v1/blog/categories')).body.data.find((c: { id: number }) => c.id === categoryId).nameEn
  owner = await signedInContext(OWNER)
  page = await owner.newPage()
})
afterAll(async () => {
  await browser?.close()
  await folio?.dispose()
})

describe('writing and publishing', () => {
  test('an empty form becomes a published English post; the score rises as items are fixed', async () => {
    await page.goto(`${folio.url}/admin/editor`)
    await page
      .getByRole('complementary', { name: 'SEO/AEO check' })
      .getByText('Fill the title, category and body to run the check.')
      .waitFor()
    await page.getByLabel('Title', { exact: true }).fill('How to Choose a Static Site Generator in the Browser')
    await page.getByLabel('Category', { exact: true }).selectOption({ label: categoryName })
    await page.getByLabel('Body format').selectOption('html')
    await page.getByLabel('Body', { exact: true }).fill(E0.contentHtml)
    await page.getByLabel('Cover image URL').fill(E0.coverImage!)
    await page.getByLabel('SEO title', { exact: true }).fill('Too short')
    await page.getByLabel('Summary', { exact: true }).fill(E0.summary!)
    await page.getByLabel('Reviewed (UTC)').fill(new Date(Date.now() - 86_400_000).toISOString().slice(0, 19).replace('T', ' '))
    // The counter measures in the rule's unit as the author types.
    await expect(page.locator('#f-seoTitle-count').textContent()).resolves.toContain('9 width · aim 30–60')
    const coverItem = page.getByRole('button', { name: 'Cover alt (blocking)' })
    await coverItem.waitFor()
    const publish = page.getByRole('button', { name: 'Publish', exact: true })
    expect(await publish.isDisabled()).toBe(true)
    await expect(page.getByTestId('publish-reason').textContent()).resolves.toContain('Cover alt')
    const before = await score(page)

    // One fix by clicking the item: focus moves to its field.
    await coverItem.click()
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe('f-coverAlt')
    await page.keyboard.type('Three static site generator logos on a desk')
    await coverItem.waitFor({ state: 'detached' })
    const afterAlt = await score(page)
    // One by the item's autofix: the suggested SEO title replaces the short one.
    await page.getByRole('button', { name: 'Fix: SEO title length' }).click()
    await page.getByRole('button', { name: 'Fix: SEO title length' }).waitFor({ state: 'detached' })
    await checked(page)
    const afterFix = await score(page)
    expect(afterAlt).toBeGreaterThan(before)
    expect(afterFix).toBeGreaterThan(afterAlt)

    expect(await publish.isDisabled()).toBe(false)
    await publish.click()
    await page.getByTestId('post-state').getByText('Published', { exact: true }).waitFor()
    enId = Number(new URL(page.url()).searchParams.get('id'))
    const stored = (await consoleClient(folio).call('GET', `/api/v1/blog/posts?language=en`)).body.data.records
    enSlug = stored.find((p: { id: number }) => p.id === enId).slug
    expect(enSlug).toBe('how-to-choose-a-static-site-generator-in-the-browser')
  })

  test('"Write the Chinese version" starts a linked translation; the hreflang pair is live once published', async () => {
    await page.getByRole('link', { name: 'Write the Chinese version' }).click()
    await expect(page.getByLabel('Translation slug (alternateSlug)').inputValue()).resolves.toBe(enSlug)
    await expect(page.getByLabel('Cover image URL').inputValue()).resolves.toBe(E0.coverImage!)
    await page.getByLabel('Title', { exact: true }).fill(Z0.title)
    await page.getByLabel('Slug', { exact: true }).fill('choose-ssg-zh')
    await page.getByLabel('Body format').selectOption('html')
    await page.getByLabel('Body', { exact: true }).fill(Z0.contentHtml)
    await page.getByLabel('Cover alt text').fill(Z0.coverAlt!)
    // The counter counts CJK as 2 in the SEO title's width.
    await page.getByLabel('SEO title', { exact: true }).fill('静态网站')
    await expect(page.locator('#f-seoTitle-count').textContent()).resolves.toContain('8 width')
    const publish = page.getByRole('button', { name: 'Publish', exact: true })
    await page.getByTestId('seo-score').waitFor()
    await checked(page)
    expect(await publish.isDisabled()).toBe(false)
    await publish.click()
    await page.getByTestId('post-state').getByText('Published', { exact: true }).waitFor()
    zhId = Number(new URL(page.url()).searchParams.get('id'))
    await folio.rendered()
    const en = await (await fetch(`${folio.url}/en/blog/${enSlug}`)).text()
    const zh = await (await fetch(`${folio.url}/cn/blog/choose-ssg-zh`)).text()
    expect(en).toMatch(/hreflang="zh[^"]*"[^>]*choose-ssg-zh|choose-ssg-zh[^>]*hreflang="zh/)
    expect(zh).toContain(enSlug)
  })

  test('the posts list shows both with scores and the translation partner', async () => {
    await page.goto(`${folio.url}/admin/posts`)
    const row = page.getByRole('row').filter({ hasText: 'How to Choose a Static Site Generator in the Browser' })
    await row.getByRole('link', { name: 'Open translation (zh)' }).waitFor()
    await page.getByLabel('Language').last().selectOption('zh')
    await row.waitFor({ state: 'detached' })
    expect(await page.getByRole('row').filter({ hasText: Z0.title }).count()).toBe(1)
  })
})

describe('nothing lost', () => {
  test('two contexts save the same post: the conflict is shown side by side and merged by field', async () => {
    const other = await signedInContext(OWNER)
    const b = await other.newPage()
    await Promise.all([page.goto(`${folio.url}/admin/editor?id=${enId}`), b.goto(`${folio.url}/admin/editor?id=${enId}`)])
    // Both hold the same version before either saves.
    await Promise.all([page, b].map((p) => p.getByRole('heading', { name: 'Edit post' }).waitFor()))
    await page.getByLabel('Open Graph title').fill('Their OG title')
    await page.keyboard.press('Control+s')
    await page.getByText('Saved.').waitFor()
    await b.getByLabel('Open Graph description').fill('My OG description')
    await b.getByRole('button', { name: 'Save draft' }).click()
    const conflict = b.getByRole('alertdialog')
    await conflict.waitFor()
    await expect(conflict.getByRole('rowheader').allTextContents()).resolves.toContain('ogDescription')
    await conflict.getByRole('button', { name: 'Save the merge' }).click()
    await b.getByText('Saved.').waitFor()
    const post = (await consoleClient(folio).call('GET', `/api/v1/blog/posts/${enSlug}`)).body.data
    expect([post.ogTitle, post.ogDescription]).toEqual(['Their OG title', 'My OG description'])
    await other.close()

    // Revisions: v2 (the translation's link back) against now, as a word diff; then restored.
    await page.reload()
    await page.getByRole('button', { name: 'Show changes v2' }).click()
    await expect(page.getByRole('definition').locator('ins').allTextContents()).resolves.toEqual(['Their OG title', 'My OG description'])
    await page.getByRole('button', { name: 'Restore v2' }).click()
    await page.getByRole('button', { name: 'Restore v4' }).waitFor()
    await expect(page.getByLabel('Open Graph title').inputValue()).resolves.toBe('')
  })

  test('a closed tab’s unsaved edits are offered back; an image dropped into the body is uploaded with its alt', async () => {
    const tab = await owner.newPage()
    await tab.goto(`${folio.url}/admin/editor`)
    await tab.getByLabel('Title', { exact: true }).fill('Words typed before the tab closed')
    await tab.close()
    const again = await owner.newPage()
    await again.goto(`${folio.url}/admin/editor`)
    await again.getByRole('button', { name: 'Restore them' }).click()
    await expect(again.getByLabel('Title', { exact: true }).inputValue()).resolves.toBe('Words typed before the tab closed')

    // A PNG dropped on the (Markdown) body: the editor asks for its alt, uploads it, inserts it.
    again.once('dialog', (dialog) => void dialog.accept('A red square on white'))
    await again.getByLabel('Body', { exact: true }).evaluate((body, bytes) => {
      const data = new DataTransfer()
      data.items.add(new File([new Uint8Array(bytes)], 'square.png', { type: 'image/png' }))
      body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
    }, Array.from(png()))
    const inserted = again.getByLabel('Body', { exact: true }).locator('.cm-line', { hasText: /^!\[A red square on white\]\(.+\.png\)$/ })
    await inserted.waitFor()
    const url = /\((.+)\)/.exec((await inserted.textContent())!)![1]!
    const image = await fetch(folio.url + new URL(url).pathname)
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png'])
    await again.close()
  })
})

describe('roles and hostile text', () => {
  test('an author can check and preview but not publish, and is told why', async () => {
    const context = await signedInContext(AUTHOR)
    const a = await context.newPage()
    await a.goto(`${folio.url}/admin/editor?id=${enId}`)
    await a.getByTestId('seo-score').waitFor()
    expect(await a.getByRole('button', { name: 'Publish', exact: true }).isDisabled()).toBe(true)
    await expect(a.getByTestId('publish-reason').textContent()).resolves.toBe('Your role can draft, check and preview, but not publish.')
    expect(await a.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true)
    await a.getByRole('button', { name: 'Preview link' }).click()
    await expect(a.getByTestId('preview-link').getAttribute('href')).resolves.toContain('/preview')
    await context.close()
  })

  test('the hostile corpus pasted into the fields stays inert in the editor and the preview; axe finds nothing serious', async () => {
    const hostile = await owner.newPage()
    const hits = await watchForPayloads(hostile)
    await hostile.goto(`${folio.url}/admin/editor`)
    await hostile.getByRole('button', { name: 'Discard them' }).click()
    const payload = corpus.join('\n')
    await hostile.getByLabel('Title', { exact: true }).fill(corpus[0]!.slice(0, 200))
    await hostile.getByLabel('Category', { exact: true }).selectOption({ label: categoryName })
    await hostile.getByLabel('Body format').selectOption('html')
    await hostile.getByLabel('Body', { exact: true }).fill(payload)
    await hostile.getByLabel('Summary', { exact: true }).fill(corpus[1]!)
    await hostile.getByLabel('SEO description').fill(corpus[2]!)
    await hostile.getByTestId('seo-score').waitFor()
    await hostile.getByRole('button', { name: 'Save draft' }).click()
    await hostile.getByText('Saved.').waitFor()
    await hostile.getByRole('button', { name: 'Preview link' }).click()
    const preview = await hostile.getByTestId('preview-link').getAttribute('href')
    if (process.env.SCREENSHOTS === '1') await screenshots()
    expect(await axeViolations(hostile)).toEqual([])
    await hostile.goto(`${folio.url}${new URL(preview!).pathname}`)
    await hostile.locator('h1').waitFor()
    expect(hits).toEqual([])
  })
})
