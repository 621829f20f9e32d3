import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import corpus from './corpus/html.json'
import urls from './corpus/urls.json'
import { DOM_NAMES } from '../../src/shared/dom-names.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { png } from '../media/fixtures.ts'

setDefaultTimeout(120_000)

const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Debian's Chromium, installed with apt when this machine lacks it. */
async function ensureChromium(): Promise<void> {
  if (existsSync(CHROMIUM)) return
  const install = Bun.spawn(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'], { stdout: 'ignore', stderr: 'pipe' })
  const timer = setTimeout(() => install.kill(), 600_000)
  const code = await install.exited
  clearTimeout(timer)
  if (code !== 0 || !existsSync(CHROMIUM)) throw new Error(`apt-get install chromium failed: ${await new Response(install.stderr).text()}`)
}

/**
 * The page a front end would build from the API's JSON: the author box from `avatar` and
 * `socialLinks` (hrefs set as attributes), the post body with `innerHTML = contentHtml`, and the
 * TOC with each id pasted into markup as it comes (ids are safe tokens) and its text as text.
 * Every payload of the corpus calls `window.__pwned` (a binding into the test that survives
 * navigation); dialogs (`alert(1)`) are counted too.
 */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>check</title>
<script>
  window.render = ({ author, post }) => {
    const box = document.getElementById('author')
    const avatar = document.createElement('img')
    avatar.src = author.avatar
    box.append(avatar)
    const links = JSON.parse(author.socialLinks)
    for (const [name, url] of Object.entries(links)) {
      const a = document.createElement('a')
      a.href = url
      a.textContent = name
      box.append(a)
    }
    document.getElementById('toc').innerHTML = post.toc.map((item) => '<a href="#' + item.id + '" id="toc-' + item.id + '"></a>').join('')
    post.toc.forEach((item) => { document.getElementById('toc-' + item.id).textContent = item.text })
    document.getElementById('content').innerHTML = post.contentHtml
  }
</script></head><body><div id="author"></div><nav id="toc"></nav><article id="content"></article></body></html>`

let folio: Folio
let token: string
let browser: Browser
let server: ReturnType<typeof Bun.serve>

beforeAll(async () => {
  await ensureChromium()
  folio = await startFolio()
  token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(PAGE, { headers: { 'content-type': 'text/html' } }) })
})
afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  await folio?.dispose()
})

describe('in Chromium, nothing the API returns runs a payload (items 11 and 12)', () => {
  test('hostile author links are refused; a published hostile body, its toc and the author box run nothing', async () => {
    const save = (body: Record<string, unknown>) =>
      folio.call('POST', '/api/v1/blog/authors/save', { token, body: { language: 'en', ...body } })
    for (const url of urls.links.refused)
      expect((await save({ name: 'Mallory', socialLinks: JSON.stringify({ x: url }) })).status).toBe(400)
    for (const url of urls.media['https site'].clauses['never data: blob: file: javascript:'].refused)
      expect((await save({ name: 'Mallory', avatar: url })).status).toBe(400)
    const taxonomy = await seedTaxonomy(folio, token)
    const upload = new FormData()
    upload.append('file', new File([png()], 'a.png'))
    const image: string = (await folio.call('POST', '/api/v1/blog/media/upload', { token, body: upload })).body.data
    const author = await save({
      name: 'Alice',
      slug: 'alice-browser',
      avatar: image,
      socialLinks: JSON.stringify(Object.fromEntries(urls.links.accepted.map((url, i) => [`link${i}`, url]))),
    })
    expect(author.body.code).toBe('0000')
    // Media the gate can serve, so the hostile body publishes; in the page every image fails to
    // load (requests are aborted), which is what would fire an onerror handler left behind.
    const body = corpus.join('\n').replace(/\/media\/[ab]\.png|(?<=src=)x|(?<=src=")x(?=")/g, image)
    const published = await publishNewPost(
      folio,
      token,
      publishablePost(taxonomy.categoryId, author.body.data.id, { contentHtml: `${publishablePost(0, null).contentHtml}\n${body}` }),
    )
    const post = (await folio.call('GET', `/api/v1/blog/posts/${published.slug}?language=en`)).body.data
    const profile = (await folio.call('GET', '/api/v1/blog/authors/alice-browser?language=en')).body.data

    const page = await browser.newPage()
    // Only the check page loads: the avatar and media point at SITE_URL, which nobody serves here,
    // and a followed link gets 204 (no navigation), so the page stays and every click is seen.
    await page.route('**/*', (route) => {
      if (route.request().url() === server.url.href) return route.continue()
      return route.request().isNavigationRequest() ? route.fulfill({ status: 204 }) : route.abort()
    })
    const hits: string[] = []
    await page.exposeFunction('__pwned', (tag: unknown) => void hits.push(String(tag)))
    page.on('dialog', (dialog) => {
      hits.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    await page.goto(server.url.href)
    await page.evaluate(`window.render(${JSON.stringify({ author: profile, post })})`)
    // The page was really built: the author box, the toc and the body are there.
    expect(await page.locator('#toc a').count()).toBe(post.toc.length)
    expect(post.toc.length).toBeGreaterThan(5)
    await page.waitForTimeout(300)
    // Click every link: a script URL would run now.
    const links = await page.locator('a').count()
    expect(links).toBeGreaterThan(10)
    for (let i = 0; i < links; i++) await page.evaluate(`document.querySelectorAll('a')[${i}].click()`)
    await page.waitForTimeout(300)
    expect(page.url().split('#')[0]).toBe(server.url.href)
    expect(hits).toEqual([])
    await page.close()
  })

  test('the DOM clobbering list covers every document and form property of this Chromium', async () => {
    const page = await browser.newPage()
    const names = (await page.evaluate(`(() => {
      const out = new Set()
      for (const object of [document, document.createElement('form')]) {
        for (let o = object; o; o = Object.getPrototypeOf(o)) for (const key of Object.getOwnPropertyNames(o)) out.add(key)
        for (const key in object) out.add(key)
      }
      return [...out]
    })()`)) as string[]
    await page.close()
    expect(names.filter((name) => !DOM_NAMES.has(name))).toEqual([])
  })
})
