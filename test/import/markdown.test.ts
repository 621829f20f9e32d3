import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { startCaddy, type Caddy } from '../support/caddy.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { png } from '../media/fixtures.ts'

/** A site folder laid out as its generator keeps it: `files` maps relative paths to contents. */
function site(name: string, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), `folio-md-${name}-`))
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return root
}

const PROSE = Array.from(
  { length: 12 },
  (_, i) => `Static pages are served straight from disk, and paragraph ${i + 1} explains why that keeps a blog fast and cheap to run.`,
).join('\n\n')

const HUGO = site('hugo', {
  'hugo.toml': 'baseURL = "https://old.example/"\n',
  'content/about.md': '+++\ntitle = "About"\n+++\nAbout me.\n',
  'content/posts/_index.md': '+++\ntitle = "Posts"\n+++\n',
  'content/posts/hello-hugo.md': `+++
title = "Hello from Hugo: a static site moves in"
date = 2021-05-06T07:08:09Z
lastmod = 2021-06-01
draft = false
tags = ["Caddy", "static sites"]
categories = ["Guides"]
description = "How a Hugo blog moves into Folio with its URLs."
aliases = ["/old/hello/", "/2021/hello-hugo.html"]
author = "Ann Writer"
[cover]
image = "https://cdn.example/desk.jpg"
alt = "A desk by a window"
+++
## Why move

${PROSE}

{{< figure src="https://cdn.example/fig.png" caption="The figure" >}}

{{< youtube dQw4w9WgXcQ >}}

{{< tweet user="x" id="1" >}}

![local](images/local.png)
`,
  'content/posts/bundle/index.md': `---\ntitle: "A page bundle with its own slug"\ndate: 2021-07-01\nslug: bundled-post\n---\n${PROSE}\n`,
  'content/posts/not-yet.md': '+++\ntitle = "Not yet"\ndraft = true\n+++\nDraft text.\n',
})

const JEKYLL = site('jekyll', {
  '_config.yml': 'title: Old blog\n',
  '_posts/2019-03-04-hello-jekyll.md': `---
layout: post
title: "Hello from Jekyll"
categories: blog news
tags: [ruby, jekyll]
redirect_from:
  - /hello-old/
---
${PROSE}

{% highlight ruby %}
puts "hi"
{% endhighlight %}
`,
  '_drafts/unfinished.md': '---\ntitle: Unfinished\n---\nText.\n',
  'about.md': '---\ntitle: About\nlayout: page\n---\nAbout.\n',
})

const ASTRO = site('astro', {
  'astro.config.mjs': 'export default {}\n',
  'src/content/blog/first-astro.md': `---\ntitle: 'First post on Astro'\npubDate: 'Jul 08 2022'\ndescription: 'Lorem ipsum dolor sit amet'\nheroImage: 'https://cdn.example/hero.jpg'\n---\n${PROSE}\n`,
})

let folio: Folio
let caddy: Caddy
const db = () => new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
const post = (slug: string) => db().query('select * from posts where slug = ?').get(slug) as Record<string, any>

/**
 * Each old path answers 301 to `to` through Bun and Caddy, and `to` answers 200. Caddy answers
 * from the redirect artifact itself: only the API stamps X-Request-Id.
 */
async function movedTo(pairs: [string, string][]) {
  for (const base of [folio.url, caddy.url])
    for (const [from, to] of pairs) {
      const moved = await fetch(base + from, { redirect: 'manual' })
      const fromApi = moved.headers.has('x-request-id')
      expect([base, from, moved.status, moved.headers.get('location'), fromApi]).toEqual([base, from, 301, to, base === folio.url])
      expect([to, (await fetch(base + to)).status]).toEqual([to, 200])
    }
}

beforeAll(async () => {
  folio = await startFolio()
  caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
})
afterAll(async () => {
  await caddy?.stop()
  await folio?.dispose()
})

describe('import markdown', () => {
  test('a Hugo site (TOML and YAML front matter): posts, terms, author, bodies, report', async () => {
    const report = join(HUGO, 'report.json')
    const out = await folio.cli('import', 'markdown', HUGO, '--report', report)
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 3 created')
    expect(out.stdout).toContain('pages: 1 created')
    expect(db().query("select title, status from pages where slug = 'about'").get()).toEqual({ title: 'About', status: 1 })
    const hello = post('hello-hugo')
    expect(hello.status).toBe(1)
    expect(hello.published_at).toBe('2021-05-06 07:08:09')
    expect(hello.cover_image).toBe('https://cdn.example/desk.jpg')
    expect(hello.cover_alt).toBe('A desk by a window')
    expect(hello.summary).toBe('How a Hugo blog moves into Folio with its URLs.')
    expect(hello.content_html).toContain('<h2')
    expect(hello.content_html).toContain('<figcaption>The figure</figcaption>')
    expect(hello.content_html).toContain('youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(hello.content_html).not.toContain('{{')
    expect(db().query('select name from authors where id = ?').get(hello.author_id)).toEqual({ name: 'Ann Writer' })
    expect(db().query('select slug from categories where id = ?').get(hello.category_id)).toEqual({ slug: 'guides' })
    const tags = db().query('select t.slug from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = ? order by 1').all(hello.id)
    expect(tags).toEqual([{ slug: 'caddy' }, { slug: 'static-sites' }])
    expect(post('bundled-post').status).toBe(1)
    expect(post('not-yet').status).toBe(0)
    const notes = (await Bun.file(report).json()).posts.find((p: { slug: string }) => p.slug === 'hello-hugo').notes
    expect(notes).toEqual(['template tag tweet removed', 'relative image not carried: images/local.png'])
  })

  test('a re-run creates nothing', async () => {
    const out = await folio.cli('import', 'markdown', HUGO)
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 0 created, 0 updated, 3 unchanged')
  })

  test('Jekyll (_posts dates, categories in the path, highlight) and Astro (src/content collections)', async () => {
    expect((await folio.cli('import', 'markdown', JEKYLL)).code).toBe(0)
    const hello = post('hello-jekyll')
    expect(hello.published_at).toBe('2019-03-04 00:00:00')
    expect(hello.content_html).toContain('<code class="language-ruby">')
    expect(hello.content_html).not.toContain('{%')
    expect(post('unfinished').status).toBe(0)
    expect((await folio.cli('import', 'markdown', ASTRO)).code).toBe(0)
    expect(post('first-astro').cover_image).toBe('https://cdn.example/hero.jpg')
    expect(post('first-astro').published_at).toMatch(/^2022-07-0[78] /)
  })

  test("aliases and each generator's default paths answer 301 through Bun and Caddy", async () => {
    await folio.rendered()
    await movedTo([
      ['/posts/hello-hugo/', '/en/blog/hello-hugo'],
      ['/old/hello/', '/en/blog/hello-hugo'],
      ['/2021/hello-hugo.html', '/en/blog/hello-hugo'],
      ['/posts/bundled-post/', '/en/blog/bundled-post'],
      ['/tags/caddy/', '/en/tag/caddy/'],
      ['/categories/guides/', '/en/category/guides/'],
      ['/blog/news/2019/03/04/hello-jekyll.html', '/en/blog/hello-jekyll'],
      ['/hello-old/', '/en/blog/hello-jekyll'],
      ['/blog/first-astro/', '/en/blog/first-astro'],
    ])
    // A draft's default path is not claimed.
    expect((await fetch(`${folio.url}/posts/not-yet/`, { redirect: 'manual' })).status).toBe(404)
  })
})

describe('--media fetch', () => {
  test('downloads images through the upload path, rewrites URLs; private addresses refused without the switch', async () => {
    const hits: string[] = []
    const images = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) => {
        const path = new URL(request.url).pathname
        hits.push(path)
        return path.endsWith('.png') ? new Response(png([9, 8, 7]), { headers: { 'content-type': 'image/png' } }) : new Response('<svg/>')
      },
    })
    try {
      const at = (name: string) => `http://127.0.0.1:${images.port}/${name}`
      const folder = (slug: string) =>
        site('fetch', {
          [`posts/${slug}.md`]: `---\ntitle: Images fetched from the old site on import\ncover: ${at('cover.png')}\n---\n${PROSE}\n\n![a chart](${at('body.png')})\n\n![not an image](${at('page.svg')})\n`,
        })
      const report = join(tmpdir(), `fetch-${process.pid}.json`)
      const allowed = Bun.spawn(
        [process.execPath, 'src/cli.ts', 'import', 'markdown', folder('fetched'), '--media', 'fetch', '--report', report],
        {
          cwd: join(import.meta.dir, '..', '..'),
          env: { ...folio.env, IMPORT_ALLOW_PRIVATE: '1' },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      )
      expect(await allowed.exited).toBe(0)
      const fetched = post('fetched')
      const mediaUrl = folio.env.MEDIA_URL ?? 'http://localhost:3000/media'
      expect(fetched.cover_image.startsWith(mediaUrl)).toBe(true)
      expect(fetched.content_html).toContain(mediaUrl)
      expect(fetched.content_html).not.toContain(at('body.png'))
      expect(new Set(hits)).toEqual(new Set(['/cover.png', '/body.png', '/page.svg']))
      const notes = (await Bun.file(report).json()).posts[0].notes as string[]
      expect(notes.some((n) => n.startsWith('image not fetched (Unsupported image type') && n.endsWith(at('page.svg')))).toBe(true)
      // Without IMPORT_ALLOW_PRIVATE, a loopback address is never contacted.
      hits.length = 0
      const refused = await folio.cli('import', 'markdown', folder('refused'), '--media', 'fetch', '--report', report)
      expect(refused.code).toBe(0)
      expect(hits).toEqual([])
      const refusedNotes = (await Bun.file(report).json()).posts[0].notes as string[]
      expect(refusedNotes).toContain(
        `image not fetched (127.0.0.1 is a loopback, private, link-local or reserved address): ${at('body.png')}`,
      )
      expect(post('refused').content_html).toContain(at('body.png'))
    } finally {
      images.stop(true)
    }
  })
})

describe('hostile Markdown folders', () => {
  const refused = async (files: Record<string, string>, message: RegExp) => {
    const out = await folio.cli('import', 'markdown', site('bad', files))
    expect(out.code).toBe(1)
    expect(out.stderr.trim().split('\n')).toHaveLength(1)
    expect(out.stderr).toMatch(message)
  }
  test('a YAML alias bomb and deep TOML are refused, naming the file', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for (const l of 'bcdefghi')
      laughs.push(
        `${l}: &${l} [${Array(9)
          .fill(`*${String.fromCharCode(l.charCodeAt(0) - 1)}`)
          .join(',')}]`,
      )
    await refused({ 'posts/bomb.md': `---\n${laughs.join('\n')}\n---\nbody\n` }, /^folio: posts\/bomb\.md: front matter: .*alias/i)
    await refused(
      { 'posts/deep.md': `+++\nx = ${'['.repeat(5000)}${']'.repeat(5000)}\n+++\n` },
      /^folio: posts\/deep\.md(:\d+)?: front matter: /,
    )
  })
  test('bodies at the size limit made of unclosed template tags and images import (every pass is linear)', async () => {
    const body = ['{{<a ', '{%a ', '<img '].map((open) => open.repeat(Math.floor(1_300_000 / open.length))).join('\n')
    const out = await folio.cli('import', 'markdown', site('linear', { 'posts/linear.md': `---\ntitle: Linear\n---\n${body}` }))
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 1 created')
  })
  test('an unclosed or oversized front matter, a bad line, a huge file', async () => {
    await refused(
      { 'posts/open.md': '---\ntitle: x\nbody never closes\n' },
      /^folio: posts\/open\.md: front matter opened with --- is never closed/,
    )
    await refused({ 'posts/big.md': `---\n${'k: v\n'.repeat(20_000)}---\n` }, /front matter larger than 64 KB/)
    await refused({ 'posts/line.md': '---\ntitle: ok\ntags: [a\n---\n' }, /^folio: posts\/line\.md:\d+: front matter: /)
    await refused({ 'posts/huge.md': `---\ntitle: x\n---\n${'a'.repeat(5 * 1024 * 1024)}` }, /^folio: posts\/huge\.md: larger than 4 MB/)
  })
})
