import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'
import { startStack, type Stack } from '../publishing/stack.ts'

/**
 * Standalone pages (docs/pages.md) end to end, on one server with Caddy in front: the API
 * extension (validation naming fields, scopes, publish/unpublish, If-Match), the pages on the site
 * through Bun and Caddy, their hreflang pair, the navigation, the sitemap, and their absence from
 * post lists and feeds.
 */
let s: Stack
let writer: string
let post: any
beforeAll(async () => {
  s = await startStack()
  writer = await s.folio.token('blog:read', 'blog:write')
  post = await publishNewPost(s.folio, s.token, publishablePost(s.categoryId, s.authorId, { slug: 'a-post' }))
}, 120_000)
afterAll(async () => {
  await s?.dispose()
})

const P = '/api/v1/blog/pages'
const save = (body: Record<string, unknown>, token = s.token, headers: Record<string, string> = {}) =>
  s.folio.call('POST', `${P}/save`, { token, body, headers })
const about = {
  language: 'en',
  title: 'About us',
  slug: 'about',
  contentMarkdown: '# Who we are\n\nWe write <script>alert(1)</script>**notes**.',
}
const fieldsOf = (answer: { body: { data: any } }) => answer.body.data?.errors?.map((e: any) => e.field)

describe('the pages API', () => {
  test('validation answers 400 naming the field; scopes as for posts', async () => {
    const bad = await save({ language: 'en', title: 'x', contentHtml: '<p>x</p>', slug: 'blog' })
    expect([bad.status, bad.body.code, fieldsOf(bad)]).toEqual([400, 'VALIDATION_FAILED', ['slug']])
    const shape = await save({ language: 'en', title: 'x', contentHtml: '<p>x</p>', slug: 'Not A Slug!' })
    expect(fieldsOf(shape)).toEqual(['slug'])
    const both = await save({ language: 'en', title: 'x', contentHtml: '<p>x</p>', contentMarkdown: 'x' })
    expect(fieldsOf(both)).toEqual(['contentHtml', 'contentMarkdown'])
    const nav = await save({ ...about, navPlacement: 'sidebar' })
    expect([nav.status, JSON.stringify(fieldsOf(nav))]).toEqual([400, expect.stringContaining('navPlacement')])
    const canonical = await save({ ...about, canonicalUrl: 'javascript:alert(1)' })
    expect(fieldsOf(canonical)).toEqual(['canonicalUrl'])
    const lang = await save({ ...about, language: 'fr' })
    expect([lang.status, JSON.stringify(fieldsOf(lang))]).toEqual([400, expect.stringContaining('language')])
    expect((await s.folio.call('POST', `${P}/save`, { body: about })).status).toBe(401)
    const publishWithoutScope = await save({ ...about, status: 1 }, writer)
    expect([publishWithoutScope.status, publishWithoutScope.body.code]).toEqual([403, 'FORBIDDEN'])
    const missing = await s.folio.call('POST', `${P}/999999/publish`, { token: s.token })
    expect([missing.status, missing.body.code]).toEqual([400, 'BLOG_NOT_FOUND'])
  })

  test('a draft is saved sanitized, unseen until published; If-Match guards edits; unpublish hides it', async () => {
    const draft = await save(about, writer)
    expect(draft.body.code).toBe('0000')
    const page = draft.body.data
    expect(page).toMatchObject({ slug: 'about', status: 0, version: 1, navPlacement: 'none', url: 'https://blog.example.org/en/about' })
    expect(page.contentHtml).toContain('<strong>notes</strong>')
    expect(page.contentHtml).not.toContain('<script')
    expect((await s.folio.call('GET', `${P}/about`)).body.code).toBe('BLOG_NOT_FOUND')
    expect((await s.viaCaddy('/en/about')).status).toBe(404)
    const drafts = await s.folio.call('GET', '/api/admin/blog/pages', { token: writer })
    expect(drafts.body.data.map((p: any) => p.slug)).toEqual(['about'])

    const stale = await save({ ...about, id: page.id }, s.token, { 'if-match': '"7"' })
    expect([stale.status, stale.body.code]).toEqual([412, 'VERSION_CONFLICT'])
    const published = await s.folio.call('POST', `${P}/${page.id}/publish`, { token: s.token, headers: { 'if-match': '"1"' } })
    expect(published.body.data).toMatchObject({ status: 1, version: 2 })
    await s.folio.settled()
    const html = await (await s.viaCaddy('/en/about')).text()
    expect(html).toContain('<h1>About us</h1>')
    expect((await s.folio.call('GET', `${P}/about`)).body.data.title).toBe('About us')
    expect((await s.folio.call('GET', `${P}?language=en`)).body.data.map((p: any) => p.slug)).toEqual(['about'])

    const again = await s.folio.call('POST', `${P}/${page.id}/unpublish`, { token: s.token })
    expect(again.body.data.status).toBe(0)
    await s.folio.settled()
    expect((await s.viaCaddy('/en/about')).status).toBe(404)
    expect((await s.viaApi('/en/about')).status).toBe(404)
    expect((await s.folio.call('POST', `${P}/${page.id}/publish`, { token: s.token })).body.code).toBe('0000')

    // The CLI lists and moves pages through the same verbs; the server renders what it recorded.
    const list = await s.folio.cli('pages', 'list', '--language', 'en')
    expect(list.stdout).toContain(`${page.id}\ten\tabout\tpublished\tnone`)
    expect((await s.folio.cli('pages', 'unpublish', String(page.id))).code).toBe(0)
    await s.folio.settled()
    expect((await s.viaCaddy('/en/about')).status).toBe(404)
  })
})

describe('pages on the site', () => {
  test('served by Bun and Caddy alike, paired by hreflang, in the navigation and sitemap, never in lists or feeds', async () => {
    const en = await save({
      language: 'en',
      title: 'Contact',
      contentHtml: '<p>Write to us.</p>',
      alternateSlug: 'lianxi',
      navPlacement: 'header',
      navOrder: 1,
      status: 1,
    })
    const zh = await save({
      language: 'zh',
      title: '联系我们',
      slug: 'lianxi',
      contentHtml: '<p>给我们写信。</p>',
      alternateSlug: 'contact',
      status: 1,
    })
    const privacy = await save({ language: 'en', title: 'Privacy', contentHtml: '<p>No cookies.</p>', navPlacement: 'footer', status: 1 })
    expect([en.body.data.slug, zh.body.data.slug, privacy.body.data.slug]).toEqual(['contact', 'lianxi', 'privacy'])
    await s.folio.settled()

    const page = await s.viaCaddy('/en/contact')
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    const html = await page.text()
    expect(html).toBe(await (await s.viaApi('/en/contact')).text())
    expect(html).toContain('<link rel="alternate" hreflang="zh" href="https://blog.example.org/cn/lianxi"/>')
    expect(html).toContain('<link rel="canonical" href="https://blog.example.org/en/contact"/>')
    expect((await (await s.viaCaddy('/cn/lianxi')).text()).includes('hreflang="en" href="https://blog.example.org/en/contact"')).toBe(true)
    expect(await (await s.viaCaddy('/en/contact.md')).text()).toContain('# Contact')

    // Every page of the language shows the navigation, the post's page too, re-rendered with it.
    const postHtml = await (await s.viaCaddy(`/en/blog/${post.slug}`)).text()
    expect(postHtml).toContain('<a href="/en/contact">Contact</a>')
    expect(postHtml).toMatch(/<nav class="page-links"[^>]*><a href="\/en\/privacy">Privacy<\/a>/)
    expect(await (await s.viaCaddy('/cn/')).text()).not.toContain('/en/contact')

    const sitemap = await (await s.viaCaddy('/sitemap.xml')).text()
    expect(sitemap).toContain('https://blog.example.org/sitemap/standalone.xml')
    const standalone = await (await s.viaCaddy('/sitemap/standalone.xml')).text()
    expect(standalone).toContain('<loc>https://blog.example.org/cn/lianxi</loc>')
    expect(standalone).toContain('hreflang="en" href="https://blog.example.org/en/contact"')

    // The home page links it once, from the navigation: no card; feeds and the API's lists not at all.
    expect((await (await s.viaCaddy('/en/')).text()).split('/en/contact').length).toBe(2)
    for (const path of ['/en/rss.xml', '/en/atom.xml', '/en/feed.json', '/api/v1/blog/posts?language=en', '/api/v1/blog/rss.xml'])
      expect({ path, has: (await (await s.viaCaddy(path)).text()).includes('contact') }).toEqual({ path, has: false })

    // Leaving the navigation re-renders the pages that showed it; deleting removes the page.
    await save({ id: en.body.data.id, language: 'en', title: 'Contact', contentHtml: '<p>Write to us.</p>', navPlacement: 'none' })
    await s.folio.call('POST', `${P}/${privacy.body.data.id}/delete`, { token: s.token })
    await s.folio.settled()
    const after = await (await s.viaCaddy(`/en/blog/${post.slug}`)).text()
    expect([after.includes('/en/contact'), after.includes('/en/privacy')]).toEqual([false, false])
    expect((await s.viaCaddy('/en/privacy')).status).toBe(404)
    expect(await (await s.viaCaddy('/sitemap/standalone.xml')).text()).not.toContain('privacy')
  })
})
