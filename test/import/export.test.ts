import { afterAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'
import { png } from '../media/fixtures.ts'
import { Database } from 'bun:sqlite'
import { xml2js } from 'xml-js'
import { readWordpress } from '../../src/modules/import/wordpress.ts'
import { readMarkdown } from '../../src/modules/import/markdown.ts'
import type { ImportEntry } from '../../src/modules/import/model.ts'
import { buildWithHugo, type BuiltPost } from './hugo.ts'

const FIXTURES = resolve(import.meta.dir, '..', 'fixtures', 'import')
const dir = mkdtempSync(join(tmpdir(), 'folio-export-'))
let folio: Folio | undefined
afterAll(() => folio?.dispose())

/** Every public file of a cache folder, by path, as a sha256 of its bytes (the engine's own `.folio-*` state files left out). */
function tree(root: string): Record<string, string> {
  const files: Record<string, string> = {}
  for (const path of (readdirSync(root, { recursive: true }) as string[]).sort())
    if (!path.startsWith('.') && statSync(join(root, path)).isFile())
      files[path] = createHash('sha256')
        .update(readFileSync(join(root, path)))
        .digest('hex')
  return files
}

/** A small Hugo site in Chinese, so the archive carries both languages. */
function chineseSite(): string {
  const root = join(dir, 'zh-site')
  mkdirSync(join(root, 'content', 'posts'), { recursive: true })
  writeFileSync(join(root, 'hugo.toml'), '')
  const prose = Array.from({ length: 10 }, (_, i) => `静态页面直接从磁盘提供服务，这是第${i + 1}段，说明为什么博客因此又快又便宜。`).join(
    '\n\n',
  )
  writeFileSync(
    join(root, 'content', 'posts', 'jingtai.md'),
    `+++\ntitle = "静态网站为什么快：从磁盘直接提供页面"\ndate = 2022-02-02\ntags = ["静态"]\n+++\n${prose}\n`,
  )
  writeFileSync(
    join(root, 'content', 'posts', 'escapes.md'),
    `---\ntitle: 'Tom & "Jerry" ]]> <b>bold</b> \x01'\n---\n${prose}\n\nA literal ]]> and &amp; in the body.\n`,
  )
  return root
}

/** Every entry one of the project's own readers (WordPress by default) finds in a file or folder. */
async function readBack(file: string, reader: (path: string) => AsyncIterable<ImportEntry> = readWordpress) {
  const entries = []
  for await (const entry of reader(file)) entries.push(entry)
  return entries
}

describe('export --format folio, then import folio', () => {
  test('into a fresh DATA_DIR: every public page byte-identical after the rebuild', async () => {
    folio = await startFolio()
    expect((await folio.cli('import', 'wordpress', join(FIXTURES, 'wordpress-small-export.xml'))).code).toBe(0)
    expect((await folio.cli('import', 'ghost', join(FIXTURES, 'ghost-5.json'))).code).toBe(0)
    expect((await folio.cli('import', 'markdown', chineseSite(), '--language', 'zh')).code).toBe(0)
    const form = new FormData()
    form.append('file', new File([png([1, 2, 3])], 'a.png'))
    const token = await folio.token('blog:write')
    expect((await folio.call('POST', '/api/v1/blog/media/upload', { token, body: form })).status).toBe(200)
    await folio.settled()
    const before = tree(folio.cacheDir)
    // WXR: well-formed to an independent parser, and read back whole by the project's WordPress reader.
    const wxrFile = join(dir, 'site.xml')
    const wxr = await folio.cli('export', wxrFile, '--format', 'wxr')
    expect(wxr.code).toBe(0)
    expect(() => xml2js(readFileSync(wxrFile, 'utf8'))).not.toThrow()
    const stored = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
      .query('select slug, title, status from posts where deleted_at is null order by id')
      .all() as { slug: string; title: string; status: number }[]
    const posts = (await readBack(wxrFile)).flatMap((e) => (e.kind === 'post' ? [e.value] : []))
    expect(posts.map((p) => [p.slug, p.title, p.status])).toEqual(
      stored.map((p) => [p.slug, p.title, p.status === 1 ? 'published' : 'draft']),
    )
    // The standalone pages too, as WordPress pages.
    const storedPages = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
      .query('select slug, title, status from pages order by id')
      .all() as { slug: string; title: string; status: number }[]
    expect(storedPages.length).toBeGreaterThan(0)
    const pageRows = (pages: { slug: string; title: string; status: string }[]) => pages.map((p) => [p.slug, p.title, p.status])
    expect(pageRows((await readBack(wxrFile)).flatMap((e) => (e.kind === 'page' ? [e.value] : [])))).toEqual(
      storedPages.map((p) => [p.slug, p.title, p.status === 1 ? 'published' : 'draft']),
    )
    // The Markdown title's \x01 was dropped on the way in (src/modules/import/plain-text.ts).
    expect(stored.find((p) => p.title.startsWith('Tom & "Jerry"'))?.title).toBe('Tom & "Jerry" ]]> <b>bold</b>')
    expect(posts.some((p) => p.title.includes(']]>'))).toBe(true)
    // Markdown: a Hugo folder that Folio's own Markdown reader reads back post for post.
    const folder = join(dir, 'md-out')
    expect((await folio.cli('export', folder, '--format', 'markdown')).code).toBe(0)
    const fromMarkdown = (await readBack(folder, readMarkdown)).flatMap((e) => (e.kind === 'post' ? [e.value] : []))
    expect(fromMarkdown.map((p) => [p.slug, p.title, p.status]).sort()).toEqual(
      stored.map((p) => [p.slug, p.title, p.status === 1 ? 'published' : 'draft']).sort(),
    )
    expect(pageRows((await readBack(folder, readMarkdown)).flatMap((e) => (e.kind === 'page' ? [e.value] : []))).sort()).toEqual(
      storedPages.map((p) => [p.slug, p.title, p.status === 1 ? 'published' : 'draft']).sort(),
    )
    expect(readdirSync(join(folder, 'static', 'media'), { recursive: true }).filter((f) => String(f).endsWith('.png'))).toHaveLength(1)
    // And Hugo itself (Debian's) builds it: every published post's page, title and body, its Folio URL an alias.
    buildWithHugo(
      folder,
      new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
        .query(
          `select slug, title, language, content_html as contentHtml, 0 as page from posts where deleted_at is null and status = 1
           union all select slug, title, language, content_html, 1 from pages where status = 1`,
        )
        .all()
        .map((row) => ({ ...(row as BuiltPost), page: !!(row as { page: number }).page })),
    )
    const archive = join(dir, 'site.tar.gz')
    const out = await folio.cli('export', archive, '--format', 'folio')
    expect(out.stderr).toBe('')
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('1 media files')
    await folio.dispose()

    folio = await startFolio()
    const back = await folio.cli('import', 'folio', archive)
    expect(back.stderr).toBe('')
    expect(back.code).toBe(0)
    await folio.settled()
    expect(Object.keys(before).length).toBeGreaterThan(20)
    // The imported sites' static pages came through the archive and are served again (docs/pages.md).
    expect(before['en/sample-page/@']).toBeDefined()
    expect(tree(folio.cacheDir)).toEqual(before)
    expect(Object.keys(tree(join(folio.dataDir, 'media')))).toHaveLength(1)
    // Into an instance that has content: refused, nothing written.
    const again = await folio.cli('import', 'folio', archive)
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/already has posts: import a Folio archive into an empty one/)
  }, 120_000)

  test('a file that is no archive is refused in one line', async () => {
    const bad = join(dir, 'bad.tar.gz')
    writeFileSync(bad, 'not a tar')
    const out = await folio!.cli('import', 'folio', bad)
    expect(out.code).toBe(1)
    expect(out.stderr.trim().split('\n')).toHaveLength(1)
  })
})
