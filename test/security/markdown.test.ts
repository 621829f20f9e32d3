import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import MarkdownIt from 'markdown-it'
import corpus from './corpus/html.json'
import { publishablePost, publishNewPost } from '../support/fixtures.ts'
import { startStack, type Stack } from '../publishing/stack.ts'

setDefaultTimeout(120_000)

/**
 * Issue 23, item 3: the Markdown twins and llms.txt, parsed by a renderer that passes HTML
 * through (markdown-it, `html: true`), hold no element that stored text put there: no raw HTML
 * token at all (turndown writes none of its own), no heading or blockquote a newline in a one-line
 * field would start, and every link or image URL http(s) or site-relative. Read through Caddy and the API alike.
 */
const HOSTILE =
  '<img src=x onerror=alert(1)> <meta http-equiv=refresh content="0;url=https://evil.example/"> & <a href="javascript:alert(2)">x</a>'
const markdown = new MarkdownIt({ html: true })
type Token = ReturnType<typeof markdown.parse>[number]

let stack: Stack
let slug: string

beforeAll(async () => {
  stack = await startStack()
  const { folio, token, categoryId, authorId } = stack
  const admin = await folio.token('blog:admin')
  const settings = await folio.call('POST', '/api/admin/blog/publication-settings/save', {
    token: admin,
    body: { nameEn: `Notes ${HOSTILE}`, nameZh: '笔记', descriptionEn: `A blog.\n# Injected heading\n${HOSTILE}`, descriptionZh: '博客' },
  })
  expect(settings.body.code).toBe('0000')
  const base = publishablePost(categoryId, authorId)
  // The corpus as text the body shows (`&lt;img onerror…&gt;` and friends) and as markup, with
  // images whose alt and title are hostile text too.
  const extra = [
    ...corpus,
    `<p>&lt;img src=x onerror=alert(3)&gt; &amp;lt;b&amp;gt; ${HOSTILE.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
    `<p><a href="https://example.org/" title="&quot; <img src=x onerror=alert(4)>">link</a></p>`,
  ].join('\n')
  const post = {
    ...base,
    contentHtml: `${base.contentHtml}\n${extra}`,
    summary: `${base.summary}\n# Injected\n> quote ${HOSTILE}`.slice(0, 300),
    keyTakeaways: [...(base.keyTakeaways as string[]).slice(0, 2), `Takeaway\n## Injected ${HOSTILE}`],
  }
  const saved = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...post, status: 0 } })
  expect(saved.body.code).toBe('0000')
  const published = await folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token })
  if (published.body.code !== '0000') {
    // The gate may refuse part of the corpus (media it cannot serve): publish the text-only part.
    await publishNewPost(folio, token, {
      ...post,
      contentHtml: `${base.contentHtml}\n${extra.split('\n').slice(-2).join('\n')}`,
      slug: `${base.slug}-b`,
    })
    slug = `${base.slug}-b`
  } else slug = base.slug as string
  await folio.rendered()
})
afterAll(() => stack?.dispose())

/** What a renderer with HTML on would show that stored text put there. */
function injected(tokens: Token[], allowedHeadings: Set<string>): string[] {
  const found: string[] = []
  const walk = (list: Token[]) => {
    for (const token of list) {
      if (token.type === 'html_block' || token.type === 'html_inline') found.push(`${token.type}: ${token.content}`)
      for (const name of ['href', 'src']) {
        const url = token.attrGet(name)?.toString() ?? null
        if (url !== null && !/^(https?:\/\/|\/(?!\/)|#)/.test(url)) found.push(`${token.type} ${name}=${url}`)
      }
      if (token.children) walk(token.children)
    }
  }
  walk(tokens)
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return
    const text = tokens[i + 1]!.content
    if (/Injected/.test(text) || (token.tag === 'h1' && !allowedHeadings.has(text))) found.push(`${token.tag}: ${text}`)
  })
  return found
}

test('the twin and llms.txt hold no element stored text put there, through both servers', async () => {
  for (const get of [stack.viaCaddy, stack.viaApi]) {
    const twin = await (await get(`/en/blog/${slug}.md`)).text()
    const llms = await (await get('/llms.txt')).text()
    const twinTokens = markdown.parse(twin, {})
    const llmsTokens = markdown.parse(llms, {})
    expect(injected(twinTokens, new Set([twinTokens[1]!.content]))).toEqual([])
    expect(injected(llmsTokens, new Set([llmsTokens[1]!.content]))).toEqual([])
    // The text is all there, shown as the characters it is.
    const html = markdown.render(twin)
    expect(html).toContain('&lt;img src=x onerror=alert(3)&gt;')
    expect(markdown.render(llms)).toContain('&lt;meta http-equiv=refresh')
    expect(llms).not.toMatch(/\n# Injected/)
  }
})
