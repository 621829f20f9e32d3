import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type Dirent } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { startCaddy, type Caddy } from '../support/caddy.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { publishablePost } from '../support/fixtures.ts'
import { formatRedirects, type RedirectFormat } from '../../src/modules/import/redirect-formats.ts'
import { generatedSite, item, RICH_SITE, wxr } from './wxr.ts'

const FIXTURES = resolve(import.meta.dir, '..', 'fixtures', 'import')
const dir = mkdtempSync(join(tmpdir(), 'folio-import-'))
const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

let folio: Folio
let caddy: Caddy
const db = () => new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
const count = (sql: string) => (db().query(sql).get() as { n: number }).n
const redirectsCsv = async () =>
  (await folio.cli('redirects', 'export', '--format', 'csv')).stdout
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))

/** Every exported old URL answers 301 to a page that answers 200, through `base`. */
async function everyOldUrlLands(base: string, rows: string[][]) {
  for (const [from, to] of rows) {
    const moved = await fetch(base + from, { redirect: 'manual' })
    expect({ from, status: moved.status }).toEqual({ from, status: 301 })
    expect(moved.headers.get('location')).toBe(to!)
    const landed = await fetch(base + to!)
    expect({ to, status: landed.status }).toEqual({ to, status: 200 })
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

describe('import wordpress', () => {
  test("WordPress's own test export imports: posts, terms, authors, comments, pages", async () => {
    const report = join(dir, 'small.json')
    const out = await folio.cli('import', 'wordpress', join(FIXTURES, 'wordpress-small-export.xml'), '--report', report)
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 6 created')
    expect(out.stdout).toContain('authors: 3 created')
    const json = await Bun.file(report).json()
    expect(json.pages.map((p: { slug: string }) => p.slug)).toContain('sample-page')
    // WordPress `page` items are standalone pages (docs/pages.md), their old URLs kept.
    expect(out.stdout).toContain('pages: 5 created')
    expect(db().query("select status, language from pages where slug = 'sample-page'").get()).toEqual({ status: 1, language: 'en' })
    expect(count('select count(*) n from pages where status = 0')).toBe(1)
    expect(json.posts).toHaveLength(6)
    for (const post of json.posts) expect(post.seoScore).toBeGreaterThan(0)
    expect(count('select count(*) n from posts')).toBe(6)
  })

  test('a second run of the same file creates nothing', async () => {
    const out = await folio.cli('import', 'wordpress', join(FIXTURES, 'wordpress-small-export.xml'))
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 0 created, 0 updated, 6 unchanged')
    expect(out.stdout).toContain('pages: 0 created, 0 updated, 5 unchanged')
    expect(out.stdout).toMatch(/categories: 0 created/)
    expect(count('select count(*) n from posts')).toBe(6)
  })

  test('a rich site: threading, moderation, shortcodes, Yoast, cover alt, statuses', async () => {
    const report = join(dir, 'rich.json')
    const out = await folio.cli('import', 'wordpress', file('rich.xml', RICH_SITE), '--report', report)
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('comments skipped (spam, trash): 2')
    const post = db().query("select * from posts where slug = 'hello-static'").get() as Record<string, any>
    expect(post.status).toBe(1)
    expect(post.published_at).toBe('2013-01-11 10:00:00')
    expect(post.cover_image).toBe('https://old.example/wp-content/uploads/desk.jpg')
    expect(post.cover_alt).toBe('A wooden desk by a window')
    expect(post.seo_title).toBe('Hello static sites: serving pages from disk')
    // The deepest category names the post; its parent is kept as a tag.
    const category = db().query('select slug from categories where id = ?').get(post.category_id) as { slug: string }
    expect(category.slug).toBe('static-sites')
    const tags = db()
      .query('select t.slug from post_tags pt join tags t on t.id = pt.tag_id where pt.post_id = ? order by t.slug')
      .all(post.id)
    expect(tags).toEqual([{ slug: 'caddy' }, { slug: 'guides' }])
    // Shortcodes converted, never raw; an unknown plugin's removed and reported; `[sic]` is text.
    expect(post.content_html).toContain('<figcaption>The desk</figcaption>')
    expect(post.content_html).toContain('youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(post.content_html).not.toMatch(/\[(caption|gallery|embed|contact-form-7)/)
    expect(post.content_html).toContain('[sic]')
    expect(post.content_html).not.toContain('wp:paragraph')
    const json = await Bun.file(report).json()
    expect(json.posts.find((p: { slug: string }) => p.slug === 'hello-static').notes).toContain('shortcode [contact-form-7] removed')
    // Threading and moderation as at the source; spam and trash skipped.
    const comments = db().query('select id, parent_id, status, content from comments where post_id = ? order by id').all(post.id) as any[]
    expect(comments.map((c) => [c.status, c.content])).toEqual([
      [1, 'First!\nGreat post.'],
      [1, 'A reply to the first.'],
      [0, 'Waiting for moderation.'],
      // Approved at the source under a held comment: held too, as moderation would keep it (counted yet never shown otherwise).
      [0, 'Approved under a held comment.'],
    ])
    expect(comments[1].parent_id).toBe(comments[0].id)
    expect(comments[3].parent_id).toBe(comments[2].id)
    expect(post.comment_count).toBe(2)
    // Draft and private come in as drafts; the page is a standalone page.
    expect(db().query("select status from posts where slug in ('a-draft', 'secret')").all()).toEqual([{ status: 0 }, { status: 0 }])
    expect(json.pages.map((p: { slug: string }) => p.slug)).toEqual(['about'])
  })

  test('every old URL answers 301 to a 200 page, from Bun and from Caddy', async () => {
    await folio.rendered()
    const rows = await redirectsCsv()
    const froms = rows.map(([from]) => from)
    for (const path of [
      '/2013/01/11/hello-static',
      '/hello-static',
      '/?p=10',
      '/category/guides/static-sites',
      '/tag/caddy',
      '/author/ann',
      '/feed',
    ])
      expect(froms).toContain(path)
    await everyOldUrlLands(folio.url, rows)
    await everyOldUrlLands(caddy.url, rows)
    // A WordPress page's old URL lands on its standalone page (docs/pages.md).
    expect(rows.find(([from]) => from === '/sample-page')?.[1]).toBe('/en/sample-page')
    // The trailing slash and the case of the old URL do not matter.
    expect((await fetch(`${caddy.url}/2013/01/11/Hello-Static/`, { redirect: 'manual' })).headers.get('location')).toBe(
      '/en/blog/hello-static',
    )
  })

  test('redirects export in every format', async () => {
    // One CLI start shows the command's wiring (csv); the formats are pure functions of the same map.
    const map = (await redirectsCsv()).map(([from, to]) => ({ from: from!, to: to! }))
    const exported = (format: RedirectFormat) => [...formatRedirects(format, map)].join('\n')
    const caddyFile = exported('caddy')
    expect(caddyFile).toContain('redir "/hello-static/" "/en/blog/hello-static" 301')
    expect(caddyFile).toMatch(/query p=10\n}\nredir @old\d+ "\/en\/blog\/hello-static" 301/)
    expect(exported('nginx')).toContain('return 301 /en/blog/hello-static;')
    expect(exported('netlify')).toContain('/ p=10 /en/blog/hello-static 301!')
    const bad = await folio.cli('redirects', 'export', '--format', 'apache')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--format must be one of caddy, nginx, netlify, csv')
  })

  test('old URLs are redirect artifacts: Caddy answers them itself, they follow a slug change, a rebuild agrees', async () => {
    /** Every redirect file the pipeline wrote (empty: the name says where the URL moved). */
    const redirectFiles = () =>
      (readdirSync(join(folio.cacheDir, '_moved'), { recursive: true, withFileTypes: true }) as Dirent[])
        .filter((entry) => entry.isFile())
        .map((entry) => [
          relative(join(folio.cacheDir, '_moved'), join(entry.parentPath, entry.name)),
          readFileSync(join(entry.parentPath, entry.name), 'utf8'),
        ])
        .sort()
    const fromCaddy = async (path: string, to: string) => {
      const moved = await fetch(caddy.url + path, { redirect: 'manual' })
      // Caddy's own answer: the API stamps X-Request-Id on everything it answers, relayed or not.
      expect([path, moved.status, moved.headers.get('location'), moved.headers.get('x-request-id')]).toEqual([path, 301, to, null])
      expect(moved.headers.get('cache-control')).toBe('public, no-cache')
      expect((await fetch(caddy.url + to)).status).toBe(200)
    }
    // One empty file per old URL, in its shard's folder; `/?p=` ones sharded by the id's last digits.
    expect(redirectFiles()).toContainEqual(['2013/01/11/@ic/hello-static@~en~blog~hello-static~', ''])
    expect(redirectFiles()).toContainEqual(['@10/@p=10~en~blog~hello-static~', ''])
    await fromCaddy('/2013/01/11/hello-static/', '/en/blog/hello-static')
    await fromCaddy('/?p=10', '/en/blog/hello-static')
    await fromCaddy('/tag/caddy/', '/en/tag/caddy/')
    // Bun answers from the same files, in spellings Caddy's glob does not take.
    const bun = await fetch(`${folio.url}/2013/01/11/Hello-Static/?utm_source=x`, { redirect: 'manual' })
    expect([bun.status, bun.headers.get('location')]).toEqual([301, '/en/blog/hello-static'])

    // The post takes a new slug: its redirects follow, through both servers, once rendered.
    const post = db().query("select id, author_id, category_id from posts where slug = 'hello-static'").get() as Record<string, number>
    const token = await folio.token('blog:write', 'blog:publish')
    const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
      token,
      body: { ...publishablePost(post.category_id!, post.author_id!), id: post.id, slug: 'hello-moved', status: 1 },
    })
    expect(saved.body.code).toBe('0000')
    await folio.rendered()
    await fromCaddy('/2013/01/11/hello-static/', '/en/blog/hello-moved')
    await fromCaddy('/?p=10', '/en/blog/hello-moved')
    const moved = await fetch(`${folio.url}/hello-static/`, { redirect: 'manual' })
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/en/blog/hello-moved'])
    const incremental = redirectFiles()
    expect(incremental.filter(([name]) => name!.includes('~hello-static~'))).toEqual([])

    // A full rebuild writes exactly what the incremental renders left: it brings back lost files,
    // and removes the layout before shards (a file per old URL under `_redirects/`) as a stray.
    const oldLayout = join(folio.cacheDir, '_redirects/2013/01/11/hello-static/@~en~blog~hello-moved~')
    mkdirSync(dirname(oldLayout), { recursive: true })
    writeFileSync(oldLayout, '/en/blog/hello-moved\n')
    rmSync(join(folio.cacheDir, '_moved', '2013'), { recursive: true })
    const rebuilt = await folio.cli('rebuild', '--force')
    expect(rebuilt.code).toBe(0)
    expect(redirectFiles()).toEqual(incremental)
    expect(existsSync(oldLayout)).toBe(false)
    await fromCaddy('/2013/01/11/hello-static/', '/en/blog/hello-moved')

    // Another import adds an old URL to a shard already on disk (`2013/01/11/@ic`): it gets its file.
    const joined = await folio.cli('import', 'wordpress', file('joined.xml', wxr(item({ id: 501, slug: 'joined-static' }))))
    expect(joined.code).toBe(0)
    await fromCaddy('/2013/01/11/joined-static/', '/en/blog/joined-static')
    await fromCaddy('/2013/01/11/hello-static/', '/en/blog/hello-moved')
  })

  test('--dry-run writes nothing and reports the same; --status gate keeps blocked posts as drafts', async () => {
    const thin = file('thin.xml', wxr(item({ id: 1, slug: 'thin-one', body: 'Too short.' })))
    const before = count('select count(*) n from posts')
    const dry = await folio.cli('import', 'wordpress', thin, '--dry-run', '--status', 'gate')
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('posts: 1 created')
    expect(dry.stdout).toContain('dry run: nothing was written')
    expect(count('select count(*) n from posts')).toBe(before)
    const real = await folio.cli('import', 'wordpress', thin, '--status', 'gate')
    expect(real.code).toBe(0)
    expect(real.stdout).toContain('posts with blocking SEO items: 1')
    expect(db().query("select status from posts where slug = 'thin-one'").get()).toEqual({ status: 0 })
  })

  test('an import killed mid-way (kill -9) completes when run again, nothing twice', async () => {
    const big = file('big.xml', generatedSite(300, 1).replaceAll('old.example', 'killed.example'))
    const root = resolve(import.meta.dir, '..', '..')
    // The first progress line comes once the first batch (200 posts) has committed; the process
    // then holds there (test/fixtures/hold-after-line.ts) until it is killed.
    const child = Bun.spawn(
      [process.execPath, '--preload', join(root, 'test/fixtures/hold-after-line.ts'), 'src/cli.ts', 'import', 'wordpress', big],
      {
        cwd: root,
        env: { ...folio.env, FOLIO_TEST_HOLD_AFTER: '200 posts done' },
        stdout: 'ignore',
        stderr: 'pipe',
      },
    )
    const reader = child.stderr.getReader()
    for (let seen = ''; !seen.includes('200 posts done');) seen += new TextDecoder().decode((await reader.read()).value)
    child.kill('SIGKILL')
    await child.exited
    const partial = count("select count(*) n from posts where slug like 'generated-post-%'")
    expect(partial).toBe(200)
    const again = await folio.cli('import', 'wordpress', big)
    expect(again.code).toBe(0)
    expect(count("select count(*) n from posts where slug like 'generated-post-%'")).toBe(300)
    expect(count("select count(distinct slug) n from posts where slug like 'generated-post-%'")).toBe(300)
    expect(count("select count(*) n from comments c join posts p on p.id = c.post_id where p.slug like 'generated-post-%'")).toBe(300)
  }, 180_000)
})

describe('hostile WordPress files', () => {
  const refused = async (name: string, content: string, message: RegExp) => {
    const before = count('select count(*) n from posts')
    const out = await folio.cli('import', 'wordpress', file(name, content))
    expect(out.code).toBe(1)
    expect(out.stderr.trim().split('\n')).toHaveLength(1)
    expect(out.stderr).toMatch(message)
    expect(count('select count(*) n from posts')).toBe(before)
  }
  test('XXE and billion laughs: any DOCTYPE is refused, naming the line', async () => {
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<rss><channel><wp:wxr_version>1.2</wp:wxr_version>&xxe;</channel></rss>`
    await refused('xxe.xml', xxe, /^folio: line 2: a DOCTYPE is refused/)
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]>\n<rss>&lol9;</rss>`
    await refused('laughs.xml', laughs, /DOCTYPE is refused/)
  })
  test('deep nesting, oversized fields, undefined entities and broken XML name where', async () => {
    await refused('deep.xml', `<rss>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</rss>`, /^folio: line 1: elements nest deeper than 32/)
    await refused(
      'huge.xml',
      wxr(item({ id: 1, slug: 'huge', body: 'x'.repeat(9 * 1024 * 1024) })),
      /<content:encoded> is larger than 8 MB/,
    )
    await refused('entity.xml', wxr(`<item><title>&bogus;</title></item>`), /^folio: line \d+: undefined entity/)
    await refused('broken.xml', wxr('<item><title>unclosed</item>'), /^folio: line \d+: /)
    await refused('not-wxr.xml', '<rss><channel><title>x</title></channel></rss>', /^folio: file: not a WordPress export/)
  })
})

describe('import ghost', () => {
  test('a Ghost 5 export: posts, SEO fields, tags, author; old URLs 301', async () => {
    const out = await folio.cli('import', 'ghost', join(FIXTURES, 'ghost-5.json'))
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 3 created')
    expect(out.stdout).toContain('pages: 1 created')
    const post = db().query("select * from posts where slug = 'coming-soon'").get() as Record<string, any>
    expect(post.status).toBe(1)
    expect(post.cover_alt).toBe('A tidy desk with a laptop')
    expect(post.summary).toBe('Example Blog is getting started: what to expect here.')
    expect(post.og_title).toBe('Coming soon to Example Blog')
    expect(db().query('select name, bio, avatar from authors where id = ?').get(post.author_id)).toEqual({
      name: 'Jane Doe',
      bio: 'Writes about publishing.',
      avatar: 'https://www.gravatar.com/avatar/00000000000000000000000000000000',
    })
    // Members-only content never becomes public; internal #tags are dropped.
    expect(db().query("select status from posts where slug = 'members-only'").get()).toEqual({ status: 0 })
    expect(count("select count(*) n from tags where slug = 'hash-internal'")).toBe(0)
    await folio.rendered()
    for (const [from, to] of [
      ['/coming-soon/', '/en/blog/coming-soon'],
      ['/tag/getting-started/', '/en/tag/getting-started/'],
      ['/author/jane/', '/en/author/jane/'],
    ]) {
      // Caddy's own answer from the redirect artifact (only the API stamps X-Request-Id), landing on a page.
      const moved = await fetch(caddy.url + from, { redirect: 'manual' })
      expect([from, moved.status, moved.headers.get('location'), moved.headers.get('x-request-id')]).toEqual([from, 301, to, null])
      expect([to, (await fetch(caddy.url + to)).status]).toEqual([to, 200])
    }
  })
  test("Ghost's own exporter fixture (4.1: a newsletter post under a paid tier): the post, its body, its old URL", async () => {
    // test/fixtures/import/README.md: TryGhost/Ghost's products_export.json, unchanged (MIT).
    const out = await folio.cli('import', 'ghost', join(FIXTURES, 'ghost-4-products-export.json'), '--language', 'en')
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('posts: 1 created')
    expect(out.stdout).toContain('tags: 0 created')
    expect(out.stdout).toContain('authors: 0 created')
    const post = db().query("select title, status, content_html, published_at from posts where slug = 'test-newsletter'").get() as Record<
      string,
      any
    >
    expect(post).toMatchObject({ title: 'Test newsletter', status: 1, published_at: '2022-06-08 07:15:28' })
    expect(post.content_html).toContain('<p>Hi there! This is a test newsletter.</p>')
    await folio.rendered()
    const moved = await fetch(caddy.url + '/test-newsletter/', { redirect: 'manual' })
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/en/blog/test-newsletter'])
    expect((await fetch(caddy.url + '/en/blog/test-newsletter')).status).toBe(200)
  })
  test('a bad Ghost file names the field', async () => {
    const out = await folio.cli(
      'import',
      'ghost',
      file('bad.json', JSON.stringify({ db: [{ data: { posts: [{ id: 'x', title: 5, status: 'published', html: [] }] } }] })),
    )
    expect(out.code).toBe(1)
    expect(out.stderr).toBe('folio: db[0].data.posts[0].html: expected a string\n')
  })
})
