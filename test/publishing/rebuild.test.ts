import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import { contentTypeOf } from '../../src/modules/artifacts/paths.ts'
import { xml2js } from 'xml-js'
import { publishablePost, publishableZhPost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { cacheFiles, mtimes } from './stack.ts'
import { until } from '../support/until.ts'

const B = '/api/v1/blog'
const ENV = { RATE_LIMIT_PER_MINUTE: '1000000', SITE_URL: 'https://blog.example.org' }
const started: Folio[] = []
afterAll(async () => {
  for (const folio of started) await folio.dispose()
})

async function start(env: Record<string, string> = {}) {
  const folio = await startFolio({ ...ENV, ...env })
  started.push(folio)
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const publish = (overrides: Record<string, unknown> = {}) =>
    publishNewPost(folio, token, publishablePost(categoryId, authorId, overrides))
  return { folio, token, categoryId, authorId, publish }
}

/** A rebuild's summary line, as counts. */
async function rebuildCounts(folio: Folio, ...flags: string[]) {
  const out = await folio.cli('rebuild', ...flags)
  expect(out.code).toBe(0)
  const match = /(\d+) rendered, (\d+) written, (\d+) removed, \d+ unchanged, (\d+) skipped/.exec(out.stdout)
  expect(match).not.toBeNull()
  const [rendered, written, removed, skipped] = match!.slice(1).map(Number) as [number, number, number, number]
  return { rendered, written, removed, skipped }
}

async function rebuild(folio: Folio): Promise<{ written: number; removed: number }> {
  const { written, removed } = await rebuildCounts(folio)
  return { written, removed }
}

/** Every artifact parses as what it claims to be: no torn or empty file anywhere. */
function expectWhole(cacheDir: string): void {
  for (const entry of readdirSync(join(cacheDir, 'api'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(gz|br|tmp)$/.test(entry.name)) continue
    const file = join(entry.parentPath, entry.name)
    const text = readFileSync(file, 'utf8')
    const type = contentTypeOf(relative(cacheDir, file))
    if (type.startsWith('application/json')) expect(() => JSON.parse(text)).not.toThrow()
    else if (type.startsWith('application/xml')) expect(() => xml2js(text)).not.toThrow()
    else expect(text.length).toBeGreaterThan(0)
  }
}

/** Every `.br`/`.gz` decompresses to the main file beside it and carries its mtime (whole seconds). */
function expectCopiesOfMainFiles(cacheDir: string): void {
  const decode = { br: brotliDecompressSync, gz: gunzipSync }
  let copies = 0
  for (const [path, base64] of cacheFiles(cacheDir)) {
    const ext = /\.(br|gz)$/.exec(path)?.[1] as 'br' | 'gz' | undefined
    if (!ext) continue
    const main = path.slice(0, -ext.length - 1)
    expect(decode[ext](Buffer.from(base64, 'base64')).equals(readFileSync(join(cacheDir, main)))).toBe(true)
    expect(mtimes(cacheDir, [path]).map((ms) => Math.floor(ms / 1000))).toEqual(mtimes(cacheDir, [main]).map((ms) => Math.floor(ms / 1000)))
    copies++
  }
  expect(copies).toBeGreaterThan(10)
}

/** Artifact jobs left, all of them or those of one path. */
const pendingJobs = (folio: Folio, path?: string) => {
  const db = new Database(join(folio.dataDir, 'folio.db'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const where = path === undefined ? '' : ' where path = ?'
    return (db.query(`select count(*) as n from artifact_jobs${where}`).get(...(path === undefined ? [] : [path])) as { n: number }).n
  } finally {
    db.close()
  }
}

describe('full rebuild', () => {
  test('yields exactly the bytes the incremental path wrote, and rewrites nothing', async () => {
    const { folio, token, categoryId, authorId, publish } = await start()
    const tag = await folio.call('POST', `${B}/tags/save`, { token, body: { nameEn: 'Speed', language: 'all' } })
    const posts: Awaited<ReturnType<typeof publish>>[] = []
    for (let i = 0; i < 6; i++) posts.push(await publish({ tagIds: [tag.body.data.id] }))
    const zh = await publish(publishableZhPost(categoryId, authorId, { title: '静态网站生成器怎么选', alternateSlug: posts[0].slug }))
    const call = (method: string, path: string, body?: unknown) => folio.call(method, path, { token, body })
    // Edits of every kind the public sees.
    await call('POST', `${B}/posts/save`, {
      ...publishablePost(categoryId, authorId),
      id: posts[1].id,
      slug: `${posts[1].slug}-moved`,
      tagIds: [],
    })
    await call('GET', `${B}/posts/operate?id=${posts[2].id}&status=2`)
    await call('GET', `${B}/posts/delete?id=${posts[3].id}`)
    await call('POST', `${B}/categories/save`, { id: categoryId, nameEn: 'Renamed guides', nameZh: '指南' })
    await call('POST', `${B}/tags/save`, { id: tag.body.data.id, nameEn: 'Velocity', language: 'all' })
    await call('POST', `${B}/authors/save`, { id: authorId, name: 'Jane Q. Doe', language: 'en', slug: 'jane-q-doe' })
    await call('POST', `${B}/posts/save`, {
      ...publishableZhPost(categoryId, authorId, { alternateSlug: posts[0].slug }),
      id: zh.id,
      slug: zh.slug,
      indexable: false,
    })
    expect((await folio.cli('settings', 'set', '--icon-url', 'https://example.org/icon.png', '--icon-alt', 'Icon')).code).toBe(0)
    // Standalone pages (docs/pages.md): a translated pair in the navigation, one renamed, one unpublished, one deleted.
    const page = async (body: Record<string, unknown>) => (await call('POST', `${B}/pages/save`, { status: 1, ...body })).body.data
    const about = await page({ language: 'en', title: 'About', contentHtml: '<p>Us.</p>', alternateSlug: 'guanyu', navPlacement: 'header' })
    await page({ language: 'zh', title: '关于', slug: 'guanyu', contentHtml: '<p>我们。</p>', navPlacement: 'footer' })
    await page({ id: about.id, language: 'en', title: 'About us', slug: 'about-us', contentHtml: '<p>Us.</p>' })
    const gone = await page({ language: 'en', title: 'Old terms', contentHtml: '<p>Terms.</p>', navPlacement: 'footer' })
    await call('POST', `${B}/pages/${gone.id}/delete`)
    const hidden = await page({ language: 'en', title: 'Hidden', contentHtml: '<p>Later.</p>' })
    await call('POST', `${B}/pages/${hidden.id}/unpublish`)
    // The CLI records the jobs; the running server renders them (copies left for later included).
    await folio.settled()

    const incremental = cacheFiles(folio.cacheDir)
    expect(incremental.has(`api/v1/blog/authors/jane-q-doe/@`)).toBe(true)
    expect([...incremental.keys()].some((p) => p.includes(posts[3].slug))).toBe(false)
    expect(['en/about-us/@', 'cn/guanyu/@', 'en/about/@', 'en/old-terms/@', 'en/hidden/@'].map((p) => incremental.has(p))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ])
    expect(await rebuild(folio)).toEqual({ written: 0, removed: 0 })
    expect(cacheFiles(folio.cacheDir)).toEqual(incremental)

    // From nothing, the rebuild writes the same files with the same bytes.
    rmSync(join(folio.cacheDir, 'api'), { recursive: true })
    const fresh = await rebuild(folio)
    expect(fresh.written).toBeGreaterThan(0)
    expect(cacheFiles(folio.cacheDir)).toEqual(incremental)
  })

  test('removes stale files: junk, old slugs and artifacts of posts that are gone', async () => {
    const { folio, publish } = await start()
    const post = await publish()
    const junk = ['api/v1/blog/posts/ghost/@', 'api/v1/blog/posts/ghost/@.gz', 'api/v1/blog/whatever.txt']
    for (const path of junk) await Bun.write(join(folio.cacheDir, path), 'stale')
    expect((await rebuild(folio)).removed).toBe(2)
    for (const path of junk) expect(existsSync(join(folio.cacheDir, path))).toBe(false)
    expect(existsSync(join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`))).toBe(true)
  })
})

/** Runs SQL on the real database file beside the running server, as an operator's tool would. */
function sql(folio: Folio, statement: string, ...params: (string | number)[]): void {
  const db = new Database(join(folio.dataDir, 'folio.db'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    db.query(statement).run(...params)
  } finally {
    db.close()
  }
}

const detailOf = (folio: Folio, slug: string) =>
  JSON.parse(readFileSync(join(folio.cacheDir, `${B.slice(1)}/posts/${slug}/@`), 'utf8')).data

describe('rebuild skips what did not change', () => {
  test('unchanged: nothing rendered, nothing written; --force renders and writes everything', async () => {
    const { folio, publish } = await start()
    for (let i = 0; i < 3; i++) await publish()
    // Publishes in quick succession leave some compressed copies for a second later.
    await folio.settled()
    // Seeding the taxonomy changed the small tables, so this one usually renders everything once;
    // whatever it renders, the incremental path left the same bytes: nothing is written.
    const first = await rebuildCounts(folio)
    expect(first.written).toBe(0)
    const all = first.rendered + first.skipped
    expect(all).toBeGreaterThan(20)
    const before = cacheFiles(folio.cacheDir)
    expect(await rebuildCounts(folio)).toEqual({ rendered: 0, written: 0, removed: 0, skipped: all })
    const forced = await rebuildCounts(folio, '--force')
    expect(forced.rendered).toBe(all)
    expect(forced.skipped).toBe(0)
    // No manifest is trusted: every artifact file is written again (same bytes).
    expect(forced.written).toBe([...before.keys()].filter((p) => !/\.(br|gz)$/.test(p)).length)
    expect(cacheFiles(folio.cacheDir)).toEqual(before)
    expect((await rebuildCounts(folio)).rendered).toBe(0)
  }, 90_000)

  test('a trusted cache still loses its strays: junk, orphan temp files, empty folders, old alias links, old .br copies', async () => {
    const { folio, publish } = await start()
    const post = await publish()
    const first = await rebuildCounts(folio)
    const before = cacheFiles(folio.cacheDir)
    // Under any name, artifact-like or not; a temp file whose writer is gone; the `?language=en`
    // alias links (and their copies' links) older versions made beside a main file.
    const detail = `${B.slice(1)}/posts/${post.slug}/@`
    const links = ['', '.br', '.gz'].map((ext) => `${detail}language=en${ext}`)
    links.forEach((link, i) => symlinkSync(`@${['', '.br', '.gz'][i]}`, join(folio.cacheDir, link)))
    const junk = [
      'api/v1/blog/posts/ghost/@',
      'api/v1/blog/posts/ghost/@.gz',
      'en/blog/whatever.txt',
      'api/v1/blog/posts/.@.999999999.1.tmp',
    ]
    for (const path of junk) await Bun.write(join(folio.cacheDir, path), 'stale')
    mkdirSync(join(folio.cacheDir, 'en/blog/empty-junk-folder'))
    // The `.br` an older release wrote beside the API's JSON and the Markdown twin, which now get
    // `.gz` alone (copies-rule.ts): right bytes, but junk of their own, as is the alias link's `.br`.
    const oldCopies = [detail, `en/blog/${post.slug}.md/@`].map((main) => `${main}.br`)
    for (const copy of oldCopies)
      writeFileSync(join(folio.cacheDir, copy), brotliCompressSync(readFileSync(join(folio.cacheDir, copy.slice(0, -3)))))
    // `rebuild --verify` finds no damage (the copies decompress to their main files) and removes
    // them as it removes other junk. The alias link's `.br` went with its main link, placed first.
    const verified = await folio.cli('rebuild', '--verify')
    expect(verified.stdout).toContain('verified artifacts: 0 damaged, 0 repaired')
    expect(verified.stdout).toContain(`rebuilt artifacts: 6 rendered, 0 written, 5 removed, 1 unchanged, ${first.rendered} skipped`)
    for (const path of [...junk, ...oldCopies, 'en/blog/empty-junk-folder']) expect(existsSync(join(folio.cacheDir, path))).toBe(false)
    for (const link of links) expect(() => lstatSync(join(folio.cacheDir, link))).toThrow()
    expect(cacheFiles(folio.cacheDir)).toEqual(before)
    expect(await rebuildCounts(folio)).toEqual({ rendered: 0, written: 0, removed: 0, skipped: first.rendered })
  }, 90_000)

  test('a post edited outside the API re-renders what shows it, not the whole site', async () => {
    const { folio, publish } = await start()
    const posts: Awaited<ReturnType<typeof publish>>[] = []
    for (let i = 0; i < 3; i++) posts.push(await publish())
    const all = (await rebuildCounts(folio)).rendered
    sql(folio, 'update posts set title = ? where id = ?', 'Edited in SQLite', posts[0].id)
    const after = await rebuildCounts(folio)
    expect(after.rendered).toBeGreaterThan(0)
    expect(after.rendered).toBeLessThan(all)
    expect(after.written).toBeGreaterThan(0)
    expect(detailOf(folio, posts[0].slug).title).toBe('Edited in SQLite')
    const list = JSON.parse(readFileSync(join(folio.cacheDir, `${B.slice(1)}/posts/@`), 'utf8')).data
    expect(list.records.find((r: { id: number }) => r.id === posts[0].id).title).toBe('Edited in SQLite')
    // Unpublished behind the API's back: its artifacts go.
    sql(folio, 'update posts set status = 2 where id = ?', posts[1].id)
    expect((await rebuildCounts(folio)).removed).toBeGreaterThan(0)
    expect(existsSync(join(folio.cacheDir, `${B.slice(1)}/posts/${posts[1].slug}/@`))).toBe(false)
    expect((await rebuildCounts(folio)).rendered).toBe(0)
  }, 90_000)

  test('a category edited outside the API, or another render code, re-renders everything', async () => {
    const { folio, categoryId, publish } = await start()
    const post = await publish()
    // The copies the publish left for later (a job each) would count among the first rebuild's renders.
    await folio.settled()
    const all = (await rebuildCounts(folio)).rendered
    sql(folio, 'update categories set name_en = ? where id = ?', 'Renamed in SQLite', categoryId)
    const renamed = await rebuildCounts(folio)
    expect(renamed.rendered).toBe(all)
    expect(detailOf(folio, post.slug).category.nameEn).toBe('Renamed in SQLite')
    // What a database last rendered by another release looks like: another recorded fingerprint.
    sql(folio, "update artifact_subjects set state = '\"another release\"' where subject = 'cache:inputs'")
    expect(await rebuildCounts(folio)).toEqual({ rendered: all, written: 0, removed: 0, skipped: 0 })
  }, 90_000)

  test('deleted files are written again; a deleted cache or a restored database is rendered and written whole', async () => {
    const { folio, token, categoryId, authorId, publish } = await start()
    const post = await publish()
    await folio.settled()
    const all = (await rebuildCounts(folio)).rendered
    const full = cacheFiles(folio.cacheDir)
    rmSync(join(folio.cacheDir, `${B.slice(1)}/posts/${post.slug}`), { recursive: true })
    rmSync(join(folio.cacheDir, `en/blog/${post.slug}/@.br`))
    const [pageMtime] = mtimes(folio.cacheDir, [`en/blog/${post.slug}/@`])
    const missing = await rebuildCounts(folio)
    expect(missing).toEqual({ rendered: 2, written: 2, removed: 0, skipped: all - 2 })
    expect(cacheFiles(folio.cacheDir)).toEqual(full)
    // A lost copy alone is written again beside the file, which keeps its mtime (and so its ETag).
    expect(mtimes(folio.cacheDir, [`en/blog/${post.slug}/@`])).toEqual([pageMtime!])

    // A copy of the database, taken now, is put back after a later edit was rendered.
    const copy = join(folio.dataDir, 'copy.db')
    sql(folio, `vacuum into '${copy}'`)
    await folio.call('POST', `${B}/posts/save`, {
      token,
      body: { ...publishablePost(categoryId, authorId), id: post.id, slug: post.slug, title: 'Edited after the copy' },
    })
    await folio.rendered()
    expect(detailOf(folio, post.slug).title).toBe('Edited after the copy')
    await folio.stop()
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(folio.dataDir, `folio.db${suffix}`), { force: true })
    renameSync(copy, join(folio.dataDir, 'folio.db'))
    const restored = await rebuildCounts(folio)
    expect(restored.rendered).toBe(all)
    expect(detailOf(folio, post.slug).title).toBe(post.title)
    expect(cacheFiles(folio.cacheDir)).toEqual(full)

    // Into an emptied CACHE_DIR (no old file looked for: writer.ts `vacant`), the same files, each
    // copy the compressed bytes of its main file with the main file's mtime second.
    rmSync(folio.cacheDir, { recursive: true })
    expect(await rebuildCounts(folio)).toEqual({ rendered: all, written: restored.written, removed: 0, skipped: 0 })
    expect(cacheFiles(folio.cacheDir)).toEqual(full)
    expectCopiesOfMainFiles(folio.cacheDir)
  }, 90_000)
})

describe('crash safety', () => {
  test('a job committed with its change but never rendered (the process died) is rendered at the next start', async () => {
    const { folio, publish } = await start()
    const post = await publish()
    // Copies the publish left for a second later are written first, so the job below is the only one left.
    await folio.settled()
    await folio.stop(true)
    // What a SIGKILL between commit and render leaves behind: the new row and its job, an old file.
    const db = new Database(join(folio.dataDir, 'folio.db'))
    db.query('update posts set title = ? where id = ?').run('Changed while nobody rendered', post.id)
    const path = `api/v1/blog/posts/${post.slug}/@`
    db.query('insert into artifact_jobs (path, due_at) values (?, 0)').run(path)
    db.close()
    await folio.restart()
    const artifact = JSON.parse(readFileSync(join(folio.cacheDir, path), 'utf8'))
    expect(artifact.data.title).toBe('Changed while nobody rendered')
    // Its own job is done; the search index's catch-up of the edit may have marked the search
    // shards in the background lane meanwhile (a race the count of every job used to lose).
    expect(pendingJobs(folio, path)).toBe(0)
  })

  test('kill -9 right after a publish returns, then restart: every artifact whole and current', async () => {
    const { folio, publish } = await start()
    await publish()
    const last = await publish()
    await folio.stop(true)
    await folio.restart()
    expectWhole(folio.cacheDir)
    expect(existsSync(join(folio.cacheDir, `api/v1/blog/posts/${last.slug}/@`))).toBe(true)
    // Copies the killed process left for later are durable jobs: the restarted server writes them.
    await folio.settled()
    expect(await rebuild(folio)).toEqual({ written: 0, removed: 0 })
  })

  test('kill -9 in the middle of a rebuild, then restart: every artifact whole and current', async () => {
    const { folio, publish } = await start()
    for (let i = 0; i < 40; i++) await publish()
    await folio.settled()
    const expected = cacheFiles(folio.cacheDir)
    await folio.stop(true)
    rmSync(join(folio.cacheDir, 'api'), { recursive: true })
    const root = resolve(import.meta.dir, '..', '..')
    // Its render thread lets one slice through and holds the next (render-pool.ts `holdForTest`):
    // the rebuild cannot end before the kill, however slow this process is to look.
    const hold = join(folio.dataDir, 'render-hold')
    writeFileSync(hold, '1')
    const proc = Bun.spawn([process.execPath, join(root, 'src/cli.ts'), 'rebuild'], {
      cwd: root,
      env: { ...folio.env, RENDER_WORKERS: '1', FOLIO_TEST_RENDER_HOLD: hold },
      stdout: 'ignore',
      stderr: 'ignore',
    })
    // Wait until it is visibly half-way (a slice's files written, the next held), then kill it without warning.
    const written = () =>
      existsSync(join(folio.cacheDir, 'api')) ? readdirSync(join(folio.cacheDir, 'api'), { recursive: true }).length : 0
    await until(() => proc.exitCode !== null || (existsSync(`${hold}.held`) && written() > 30), 'the rebuild half-way')
    proc.kill('SIGKILL')
    await proc.exited
    expect(proc.signalCode).toBe('SIGKILL')
    expect(pendingJobs(folio)).toBeGreaterThan(0)
    expectWhole(folio.cacheDir)

    rmSync(hold)
    await folio.restart()
    expect(pendingJobs(folio)).toBe(0)
    expectWhole(folio.cacheDir)
    expect(cacheFiles(folio.cacheDir)).toEqual(expected)
    expect(await rebuild(folio)).toEqual({ written: 0, removed: 0 })
  }, 60_000)
})

describe('sitemap shards', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)

  test('past the shard size, sitemap.xml is an index of id-range shards; a publish touches one shard', async () => {
    const { folio, token, categoryId, authorId, publish } = await start({ SITEMAP_SHARD_SIZE: '2' })
    const posts = []
    for (let i = 0; i < 5; i++) posts.push(await publish())
    const index = await folio.call('GET', `${B}/sitemap.xml`)
    expect(index.text).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    const shards = locs(index.text)
    expect(shards).toEqual([1, 2, 3].map((n) => `https://blog.example.org/api/v1/blog/sitemap/${n}.xml`))
    const listed: string[] = []
    for (const shard of shards) {
      const response = await folio.call('GET', new URL(shard).pathname)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8')
      expect(locs(response.text).length).toBeLessThanOrEqual(2)
      listed.push(...locs(response.text))
    }
    expect(listed.sort()).toEqual(posts.map((p) => `https://blog.example.org/en/blog/${p.slug}`).sort())

    const first = join(folio.cacheDir, 'api/v1/blog/sitemap/1.xml/@')
    const before = Bun.file(first).lastModified
    const sixth = await publish()
    expect(sixth.sitemapUpdated).toBe(true)
    expect(Bun.file(first).lastModified).toBe(before)

    // The last shard empties: it is removed and leaves the index.
    for (const post of [posts[4], sixth]) await folio.call('GET', `${B}/posts/delete?id=${post.id}`, { token })
    expect(locs((await folio.call('GET', `${B}/sitemap.xml`)).text)).toHaveLength(2)
    expect(existsSync(join(folio.cacheDir, 'api/v1/blog/sitemap/3.xml/@'))).toBe(false)
    expect((await folio.call('GET', `${B}/sitemap/3.xml`)).status).toBe(400)

    // A translation in a new shard pairs with a post of shard 1: its own shard, shard 1 (both in
    // the API's and the site's sitemaps) and the indexes are re-rendered, shard 2 keeps its bytes.
    const files = (shard: number) =>
      [`api/v1/blog/sitemap/${shard}.xml/@`, `sitemap/posts-${shard}.xml/@`].map((f) => join(folio.cacheDir, f))
    const second = files(2).map((f) => Bun.file(f).lastModified)
    const zh = await publishNewPost(folio, token, publishableZhPost(categoryId, authorId, { alternateSlug: posts[0].slug }))
    expect(zh.id).toBeGreaterThan(6)
    const zhShard = Math.floor((zh.id - 1) / 2) + 1
    expect(locs((await folio.call('GET', `${B}/sitemap.xml`)).text)).toEqual(
      [1, 2, zhShard].map((n) => `https://blog.example.org/api/v1/blog/sitemap/${n}.xml`),
    )
    const zhUrl = `https://blog.example.org/cn/blog/${zh.slug}`
    for (const file of files(1)) expect(readFileSync(file, 'utf8')).toContain(`hreflang="zh" href="${zhUrl}"`)
    for (const file of files(zhShard)) expect(readFileSync(file, 'utf8')).toContain(`<loc>${zhUrl}</loc>`)
    expect(files(2).map((f) => Bun.file(f).lastModified)).toEqual(second)
  })
})
