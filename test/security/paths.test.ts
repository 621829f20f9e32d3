import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { Browser } from 'playwright-core'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'
import { launchChromium } from '../support/chromium.ts'
import { startStack, type Stack } from '../publishing/stack.ts'

setDefaultTimeout(120_000)

/**
 * Issue 23, items 1 and 2: every artifact kind, spelled plainly, with a trailing slash, and behind
 * `..%2f` / `%2e%2e%2f` prefixes, through Caddy and through the API. Each answer keeps the media
 * type of the artifact or is refused (400); an HTML answer always carries the page CSP. A hostile
 * category name (raw text in the API's JSON) runs nothing in Chromium either way.
 */
const PAYLOAD = '<img src=x onerror=__pwned()>'
const HTML = 'text/html; charset=utf-8'

let stack: Stack
let browser: Browser
let urls: [string, string][]

beforeAll(async () => {
  stack = await startStack()
  const { folio, token, authorId } = stack
  const category = await folio.call('POST', '/api/v1/blog/categories/save', {
    token,
    body: { nameEn: `Hostile ${PAYLOAD}`, nameZh: PAYLOAD },
  })
  expect(category.body.code).toBe('0000')
  const post = publishablePost(category.body.data.id, authorId)
  await publishNewPost(folio, token, post)
  await folio.rendered()
  const slug = post.slug as string
  urls = [
    ['/api/v1/blog/categories', 'application/json; charset=utf-8'],
    [`/api/v1/blog/posts/${slug}`, 'application/json; charset=utf-8'],
    ['/api/v1/blog/publication-settings', 'application/json; charset=utf-8'],
    ['/api/v1/blog/sitemap.xml', 'application/xml; charset=utf-8'],
    ['/api/v1/blog/robots.txt', 'text/plain; charset=utf-8'],
    ['/en/rss.xml', 'application/rss+xml; charset=utf-8'],
    ['/en/atom.xml', 'application/atom+xml; charset=utf-8'],
    ['/en/feed.json', 'application/feed+json; charset=utf-8'],
    ['/sitemap.xml', 'application/xml; charset=utf-8'],
    ['/robots.txt', 'text/plain; charset=utf-8'],
    ['/llms.txt', 'text/plain; charset=utf-8'],
    [`/en/blog/${slug}.md`, 'text/markdown; charset=utf-8'],
    [`/en/blog/${slug}`, HTML],
    ['/en/', HTML],
  ]
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await stack?.dispose()
})

/** The spellings of one artifact URL: as it is and with a trailing slash (served), behind encoded dot segments (refused). */
const spellings = (url: string) => ({
  served: [url, url.endsWith('/') ? url : `${url}/`],
  refused: [`/en/..%2f${url.slice(1)}`, `/x/%2e%2e%2f${url.slice(1)}`, `/en/..%2F${url.slice(1)}`, `/en%5c..%5c${url.slice(1)}`],
})

describe('every artifact keeps its own media type or is refused, in both servers (issue 23, items 1-2)', () => {
  test('over HTTP', async () => {
    const wrong: string[] = []
    for (const [server, get] of [
      ['caddy', stack.viaCaddy],
      ['api', stack.viaApi],
    ] as const) {
      for (const [url, type] of urls) {
        const { served, refused } = spellings(url)
        for (const spelling of served) {
          const answer = await get(spelling)
          await answer.arrayBuffer()
          const got = `${answer.status} ${answer.headers.get('content-type')}`
          if (got !== `200 ${type}`) wrong.push(`${server} ${spelling}: ${got}, wanted 200 ${type}`)
          if (type === HTML && !answer.headers.get('content-security-policy')) wrong.push(`${server} ${spelling}: page without CSP`)
        }
        for (const spelling of refused) {
          const answer = await get(spelling)
          const body = await answer.text()
          if (answer.status !== 400 || !body.includes('"field":"path"'))
            wrong.push(`${server} ${spelling}: ${answer.status} ${answer.headers.get('content-type')}, wanted 400 naming path`)
        }
      }
      // A literal dot segment (only a hand-made request sends one; browsers resolve it) is refused by Caddy.
    }
    expect(wrong).toEqual([])
  })

  test('a literal dot segment or backslash sent as is reaches no file through Caddy', async () => {
    for (const path of ['/en/../api/v1/blog/categories', '/en/./rss.xml', '/en\\..\\api/v1/blog/categories']) {
      const curl = Bun.spawn(['curl', '-s', '--path-as-is', '-o', '/dev/null', '-w', '%{http_code}', `${stack.caddy.url}${path}`])
      expect(`${path} ${await new Response(curl.stdout).text()}`).toBe(`${path} 400`)
    }
  })

  test('in Chromium: nothing runs, and every navigation shows the artifact type or a refusal', async () => {
    const context = await browser.newContext({ acceptDownloads: false })
    const fired: string[] = []
    await context.exposeBinding('__pwned', ({ frame }) => void fired.push(frame.url()))
    const page = await context.newPage()
    page.on('dialog', (dialog) => void dialog.dismiss())
    const wrong: string[] = []
    for (const base of [stack.caddy.url, stack.folio.url]) {
      for (const [url, type] of urls) {
        const { served, refused } = spellings(url)
        for (const spelling of [...served, ...refused]) {
          // Non-HTML types may start a download instead of a page: the answer's headers still count.
          const seen = page.waitForResponse((response) => response.url() === `${base}${spelling}`)
          await page.goto(`${base}${spelling}`).catch(() => null)
          const response = await seen
          const got = response.headers()['content-type']
          const wanted = served.includes(spelling) ? type : 'application/json; charset=utf-8'
          if (got !== wanted) wrong.push(`${base}${spelling}: ${got}, wanted ${wanted}`)
          if (got?.startsWith('text/html') && !response.headers()['content-security-policy']) wrong.push(`${spelling}: no CSP`)
        }
      }
    }
    await context.close()
    expect(wrong).toEqual([])
    expect(fired).toEqual([])
  })
})
