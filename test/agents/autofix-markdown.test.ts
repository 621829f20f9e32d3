import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { AutofixRes } from '../../src/modules/posts/model.ts'
import { S } from '../../src/modules/seo/worked-examples.ts'
import { F, publishablePost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type ApiResponse, type Folio } from '../support/folio.ts'

let folio: Folio
let editor: string // blog:write + blog:publish
let writer: string // blog:write only
let categoryId: number
let authorId: number

beforeAll(async () => {
  folio = await startFolio()
  editor = await folio.token('blog:write', 'blog:publish')
  writer = await folio.token('blog:write')
  ;({ categoryId, authorId } = await seedTaxonomy(folio, editor))
})
afterAll(() => folio.dispose())

const save = (body: Record<string, unknown>, token = editor) => folio.call('POST', '/api/v1/blog/posts/save', { token, body })
const autofix = (id: number, token = writer) => folio.call('POST', `/api/v1/blog/posts/${id}/autofix`, { token })
const item = (res: ApiResponse, code: string) => res.body.data.check.items.find((i: { code: string }) => i.code === code)

describe('autofix', () => {
  test('applies every auto-fix of the check, saves a new version and revision, and answers the new check; a second call changes nothing', async () => {
    const body = {
      ...publishablePost(categoryId, authorId),
      status: 0,
      seoTitle: S(75),
      seoDescription: S(200),
      canonicalUrl: `${folio.env.SITE_URL ?? 'http://localhost:3000'}/`,
      coverAlt: 'cover.webp',
    }
    const draft = (await save(body)).body.data
    const before = await folio.call('POST', '/api/v1/blog/posts/check', { token: writer, body: { ...body, id: draft.id } })
    expect(before.body.data.canPublish).toBe(false)

    const fixed = await autofix(draft.id)
    expect(fixed.status).toBe(200)
    expect([...Value.Errors(AutofixRes, fixed.body.data)]).toEqual([])
    expect(fixed.body.data.applied).toEqual(['cover_alt', 'seo_title', 'seo_description', 'canonical_self'])
    for (const code of ['cover_alt', 'seo_title_length', 'canonical_valid']) expect(item(fixed, code).passed).toBe(true)
    expect(fixed.body.data.check.canPublish).toBe(true)
    expect(fixed.body.data.post).toMatchObject({ id: draft.id, version: 2, canonicalUrl: '', coverAlt: body.title, seoTitle: body.title })
    const revisions = await folio.call('GET', `/api/admin/blog/posts/${draft.id}/revisions`, { token: writer })
    expect(revisions.body.data.records[0]).toMatchObject({ version: 2, tokenName: 'test-blog:write' })

    const again = await autofix(draft.id)
    expect(again.body.data.applied).toEqual([])
    expect(again.body.data.post.version).toBe(2)
    expect(again.body.data.check.score).toBe(fixed.body.data.check.score)
  })

  test('a published post stays published; fixing it is a save, so it needs blog:publish', async () => {
    const body = { ...publishablePost(categoryId, authorId), status: 0, seoTitle: S(75) }
    const id = (await save(body)).body.data.id
    await save({ ...body, id, status: 1 })
    expect((await autofix(id)).status).toBe(403)
    const fixed = await autofix(id, editor)
    expect(fixed.body.data.applied).toEqual(['seo_title'])
    expect(fixed.body.data.post.status).toBe(1)
    const live = await folio.call('GET', `/api/v1/blog/posts/${body.slug}`)
    expect(live.body.data.seoTitle).toBe(body.title)
  })

  test('unknown posts are a 400; tokens without blog:write are refused', async () => {
    expect((await autofix(987654)).body.code).toBe('BLOG_NOT_FOUND')
    expect((await autofix(1, await folio.token('blog:read'))).status).toBe(403)
    expect((await autofix(1, '')).status).toBe(401)
  })
})

const MARKDOWN = `${F} ${F} ${F} ${F} ${F}

## What is a static site generator?

${F} ${F} ${F} ${F} ${F}

${F} ${F} ${F} ${F} ${F}

## How do you compare build speed?

${F} ${F} ${F} ${F} ${F}

${F} ${F} ${F} ${F} ${F}

![Build time chart](https://images.example.org/build.webp)

### Which tools did we test?

${F} ${F} ${F} ${F} ${F}

| Tool | Language |
|------|----------|
| Hugo | Go |

\`\`\`sh
hugo build
\`\`\`

## Sources

See the [Hugo docs](https://gohugo.io/) and the [Eleventy docs](https://www.11ty.dev/), or read our [earlier post](/en/blog/existing-post).[^1]

[^1]: Measured on one laptop in 2026.

<script>alert(1)</script>

[bad](javascript:alert(1)) <a href="javascript:alert(2)" onclick="x()">raw</a>
`

describe('Markdown in', () => {
  test('contentMarkdown is converted (tables, fenced code, footnotes), sanitized, given heading ids and a TOC, and publishes', async () => {
    const { contentHtml: _html, ...fields } = publishablePost(categoryId, authorId)
    const checked = await folio.call('POST', '/api/v1/blog/posts/check', { token: writer, body: { ...fields, contentMarkdown: MARKDOWN } })
    expect(checked.body.data.canPublish).toBe(true)
    const saved = await save({ ...fields, contentMarkdown: MARKDOWN, status: 1 })
    expect(saved.body.code).toBe('0000')
    const post = saved.body.data
    expect(post.toc.map((t: { id: string }) => t.id)).toEqual([
      'what-is-a-static-site-generator',
      'how-do-you-compare-build-speed',
      'which-tools-did-we-test',
      'sources',
    ])
    expect(post.contentHtml).toContain('<h2 id="what-is-a-static-site-generator">What is a static site generator?</h2>')
    expect(post.contentHtml).toContain('<td>Hugo</td>')
    expect(post.contentHtml).toContain('<pre><code class="language-sh">hugo build')
    expect(post.contentHtml).toContain('<section class="footnotes">')
    expect(post.contentHtml).toContain('<img src="https://images.example.org/build.webp" alt="Build time chart" />')
    expect(post.contentHtml).not.toContain('<script')
    expect(post.contentHtml).not.toContain('href="javascript')
    expect(post.contentHtml).not.toContain('onclick')
    expect(post.seoScore).toBe(checked.body.data.score)
    expect(post.status).toBe(1)
  })

  test('exactly one of contentHtml and contentMarkdown: both or neither is a 400 naming both', async () => {
    const { contentHtml, ...fields } = publishablePost(categoryId, authorId)
    for (const path of ['/api/v1/blog/posts/save', '/api/v1/blog/posts/check']) {
      for (const body of [{ ...fields, contentHtml, contentMarkdown: '# Hi' }, fields]) {
        const res = await folio.call('POST', path, { token: editor, body })
        expect(res.status).toBe(400)
        expect(res.body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['contentHtml', 'contentMarkdown'])
      }
    }
  })
})
