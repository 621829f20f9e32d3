import { afterAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import { copiesOf, gzipOnly } from '../../src/modules/publishing/copies-rule.ts'
import { createRenderLock } from '../../src/modules/publishing/lock.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { until } from '../support/until.ts'
import { addReceiver, startReceiver, TEST_ENV, waitForLog } from '../webhooks/receiver.ts'

const B = '/api/v1/blog'
const started: Folio[] = []
const cleanups: (() => void)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) cleanup()
  for (const folio of started) await folio.dispose()
})

async function start(env: Record<string, string> = {}) {
  const folio = await startFolio({ SITE_URL: 'https://blog.example.org', ...TEST_ENV, ...env })
  started.push(folio)
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const publish = (overrides: Record<string, unknown> = {}) =>
    publishNewPost(folio, token, publishablePost(categoryId, authorId, overrides))
  const save = async (overrides: Record<string, unknown> = {}) =>
    (await folio.call('POST', `${B}/posts/save`, { token, body: { ...publishablePost(categoryId, authorId, overrides), status: 0 } })).body
      .data
  const health = async () => (await folio.call('GET', '/healthz')).body
  return { folio, token, publish, save, health }
}

/** Every file under the cache with its inode and mtime: what "nothing was written" means (the render lock's bookkeeping, `.folio-*`, aside). */
const fileStamps = (cacheDir: string) =>
  readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.folio-'))
    .map((e) => {
      const s = statSync(join(e.parentPath, e.name))
      return `${join(e.parentPath, e.name)} ${s.ino} ${s.mtimeMs}`
    })
    .sort()

/** A path for FOLIO_TEST_RENDER_HOLD (render-pool.ts `holdForTest`): while it exists, render threads hold each slice. */
function holdFile(): string {
  const base = mkdtempSync(join(tmpdir(), 'folio-hold-'))
  cleanups.push(() => rmSync(base, { recursive: true, force: true }))
  return join(base, 'hold')
}

describe('coalesced render passes', () => {
  test('concurrent publishes share passes: each artifact is rendered once per pass, and every answer is truthful', async () => {
    const { folio, publish, save, token, health } = await start()
    await publish()
    const before = (await health()).data.render
    await publish()
    const single = (await health()).data.render.rendered - before.rendered

    const drafts = await Promise.all(Array.from({ length: 8 }, () => save()))
    const mid = (await health()).data.render
    // Not held on a render thread until all eight wait (FOLIO_TEST_RENDER_HOLD): publishes that
    // commit while a pass that read its jobs before them is held are rendered into that pass's
    // files (its slices read their own, later snapshots), and the pass after it finds the sitemap
    // and feed unchanged, so their answers say `sitemapUpdated: false` (a fresh-clone run failed so).
    const answers = await Promise.all(drafts.map((d) => folio.call('POST', `${B}/posts/${d.id}/publish`, { token })))
    for (const answer of answers) {
      expect(answer.body.code).toBe('0000')
      // Each post is in the sitemap and the feed once its answer arrives.
      expect(answer.body.data.sitemapUpdated).toBe(true)
      expect(answer.body.data.rssUpdated).toBe(true)
    }
    const after = (await health()).data.render
    // Eight publishes one after another would render about 8 × `single` paths in 8 passes; a pass
    // about to start waits for the publishes still in their SEO check (announced writes), so the
    // eight share one or two.
    expect(after.passes - mid.passes).toBeLessThanOrEqual(3)
    expect(after.rendered - mid.rendered).toBeLessThan(8 * single)
    const rss = await folio.call('GET', `${B}/rss.xml`)
    for (const d of drafts) expect(rss.text).toContain(`:post-${d.id}</guid>`)
  })

  test('a publish whose jobs a rebuild beside the server did is answered at once, though the rebuild let go of the lock between two tries', async () => {
    const { folio, token, save, health } = await start()
    const draft = await save()
    // This test stands in for a `cli rebuild` in another process: it holds CACHE_DIR's render lock
    // while the publish commits and the server's passes find it taken (they retry every 100 ms)...
    const lock = createRenderLock(folio.cacheDir)
    expect(lock.acquire()).toBe(true)
    const db = new Database(join(folio.dataDir, 'folio.db'))
    db.exec('PRAGMA busy_timeout = 5000')
    const pending = () => db.query<{ n: number }, []>('select count(*) as n from artifact_jobs').get()!.n
    const publishing = folio.call('POST', `${B}/posts/${draft.id}/publish`, { token })
    await until(() => pending() > 0, 'the publish recording its jobs')
    // The signal that a try of the server's since its jobs were recorded found the lock taken: /healthz counts them.
    const locked = async () => ((await health()).data.render as { locked: number }).locked
    const before = await locked()
    await until(async () => (await locked()) > before, 'a try of the server finding the lock taken')
    // ...then does the jobs (here: takes them off the table) and lets go, both between two of
    // the server's tries: its next pass takes the lock and finds nothing due.
    db.exec('delete from artifact_jobs')
    lock.release()
    const answer = await publishing
    db.close()
    expect(answer.body.code).toBe('0000')
    // Before, the publish waited out its 30 s (past this test's timeout) and reported its artifacts
    // as failed, in `Folio-Warning`; now its waiter hears that its jobs are done.
    expect(answer.headers.get('folio-warning')).toBeNull()
    expect(answer.body.data.sitemapUpdated).toBeDefined()
  })

  test('an unchanged rebuild writes no file at all', async () => {
    const { folio, publish } = await start()
    for (let i = 0; i < 3; i++) await publish()
    expect((await folio.cli('rebuild')).code).toBe(0)
    // Copies the publishes' burst left for a second later (COPIES_EVERY_MS) land as jobs of their own first.
    await folio.settled()
    const stamps = fileStamps(folio.cacheDir)
    const out = await folio.cli('rebuild')
    expect(out.stdout).toContain(' 0 written, 0 removed')
    expect(fileStamps(folio.cacheDir)).toEqual(stamps)
  })

  test('a cache written in the old layout is replaced at the first start of this code', async () => {
    const { folio, publish } = await start()
    const post = await publish()
    await folio.stop()
    const old = [
      'api/v1/blog/sitemap.xml',
      'api/v1/blog/sitemap.xml.gz',
      `api/v1/blog/posts/${post.slug}/en.json`,
      'api/v1/blog/rss/en.xml',
    ]
    rmSync(join(folio.cacheDir, 'api/v1/blog/sitemap.xml'), { recursive: true })
    for (const path of old) await Bun.write(join(folio.cacheDir, path), 'old layout')
    // The `.br` an older release wrote beside the API's JSON and the twin, which get `.gz` alone now (copies-rule.ts).
    const oldCopies = [`api/v1/blog/posts/${post.slug}/@`, `en/blog/${post.slug}.md/@`].map((main) => `${main}.br`)
    for (const copy of oldCopies)
      writeFileSync(join(folio.cacheDir, copy), brotliCompressSync(readFileSync(join(folio.cacheDir, copy.slice(0, -3)))))
    await Bun.write(join(folio.cacheDir, '.folio-artifacts'), 'stamp of the old code')
    await folio.restart()
    // The old files are served while the rebuild replaces them in the background (docs/operations.md, "Faults").
    const status = async () => ((await (await fetch(`${folio.url}/healthz`)).json()) as { data: { status: string } }).data.status
    await until(async () => (await status()) !== 'stale', 'the rebuild of the old layout')
    for (const path of old) expect([path, existsSync(join(folio.cacheDir, path))]).toEqual([path, path === 'api/v1/blog/sitemap.xml'])
    expect(readFileSync(join(folio.cacheDir, 'api/v1/blog/sitemap.xml/@'), 'utf8')).toContain(post.slug)
    expect(existsSync(join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`))).toBe(true)
    for (const copy of oldCopies)
      expect([copy, existsSync(join(folio.cacheDir, copy)), existsSync(join(folio.cacheDir, copy.slice(0, -3) + '.gz'))]).toEqual([
        copy,
        false,
        true,
      ])
  })

  test('artifacts served from memory carry exact validators: 304 while current, the new version at once after an edit', async () => {
    const { folio, publish, token } = await start()
    const post = await publish()
    const path = `${B}/posts/${post.slug}`
    const first = await fetch(`${folio.url}${path}`)
    const etag = first.headers.get('etag')!
    const file = statSync(join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`))
    expect(etag).toBe(`"${Math.floor(file.mtimeMs / 1000).toString(36)}${file.size.toString(36)}"`)
    const again = await fetch(`${folio.url}${path}?language=en`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    await folio.call('POST', `${B}/posts/save`, { token, body: { ...post, id: post.id, title: `${post.title} (edited)` } })
    const fresh = await fetch(`${folio.url}${path}`, { headers: { 'if-none-match': etag } })
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('etag')).not.toBe(etag)
    expect(((await fresh.json()) as { data: { title: string } }).data.title).toEndWith('(edited)')
  })

  test('a burst leaves the copies of what it keeps rewriting for later: none ever disagrees with its file, all are written within seconds', async () => {
    const { folio, publish } = await start()
    const home = join(folio.cacheDir, 'api/v1/blog/posts/@')
    /** Main files under the cache without all the copies the rule gives them; any copy present must hold the main file's bytes. */
    const withoutCopies = () => {
      let missing = 0
      for (const entry of readdirSync(folio.cacheDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.startsWith('@') || /\.(br|gz|tmp)$/.test(entry.name)) continue
        const file = join(entry.parentPath, entry.name)
        const bytes = readFileSync(file)
        if (existsSync(`${file}.br`)) expect(brotliDecompressSync(readFileSync(`${file}.br`))).toEqual(bytes)
        if (existsSync(`${file}.gz`)) expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(bytes)
        const path = relative(folio.cacheDir, file)
        const copies = copiesOf(path, bytes.length)
        if (!copies.length) expect([file, existsSync(`${file}.br`) || existsSync(`${file}.gz`)]).toEqual([file, false])
        else if (copies.some((ext) => !existsSync(file + ext))) missing++
        // The API's JSON and the twins never get a `.br` (copies-rule.ts).
        if (gzipOnly(path)) expect([file, existsSync(`${file}.br`)]).toEqual([file, false])
      }
      return missing
    }
    await publish()
    await folio.settled()
    expect(withoutCopies()).toBe(0)
    // Which copies a burst leaves for later depends on how long ago this process wrote them, on its
    // own monotonic clock: src/modules/publishing/copies-throttle.test.ts decides that on an injected
    // clock. Here, whichever were left: none disagrees with its file, and every one is written once
    // the burst settles.
    for (let i = 0; i < 3; i++) {
      await publish()
      withoutCopies()
    }
    await folio.settled()
    expect(withoutCopies()).toBe(0)
    expect(gunzipSync(readFileSync(`${home}.gz`))).toEqual(readFileSync(home))
  })

  test('the webhook worker never meets "database is locked" while 8 clients publish', async () => {
    const receiver = startReceiver()
    cleanups.push(() => receiver.stop())
    const { folio, publish, token } = await start()
    await addReceiver(folio, token, { url: receiver.url('/hook'), events: ['blog.post.published'] })
    const clients = Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 4; i++) await publish()
    })
    await Promise.all(clients)
    const records = await waitForLog(folio, token, (rs) => rs.length === 32 && rs.every((r) => r.status === 'delivered'))
    expect(records.every((r) => r.attempts === 1)).toBe(true)
    expect(receiver.on('/hook')).toHaveLength(32)
    expect(folio.output()).not.toContain('database is locked')
  }, 60_000)
})

describe('visible failure of the static path', () => {
  test('/healthz shows the render backlog', async () => {
    const { folio, publish } = await start()
    await publish()
    const res = await folio.call('GET', '/healthz')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.body.code).toBe('0000')
    expect(res.body.data.status).toBe('ok')
    expect(res.body.data.render).toMatchObject({ failing: 0, lastError: null })
    expect(res.body.data.render.pending).toBeGreaterThanOrEqual(0)
  })

  test('an unpublish whose artifacts cannot be removed says so, shows in /healthz, and is retried within seconds', async () => {
    const { folio, publish, token } = await start()
    const post = await publish()
    const folder = join(folio.cacheDir, `api/v1/blog/posts/${post.slug}`)
    // Root ignores permissions; an immutable folder refuses even root's unlink.
    expect(Bun.spawnSync(['chattr', '+i', folder]).exitCode).toBe(0)
    const unfreeze = () => void Bun.spawnSync(['chattr', '-i', folder])
    cleanups.push(unfreeze)
    const answer = await folio.call('GET', `${B}/posts/operate?id=${post.id}&status=2`, { token })
    expect(answer.status).toBe(200)
    expect(answer.body.code).toBe('0000')
    expect(answer.body.data).toBe(true)
    expect(answer.headers.get('folio-warning')).toContain('could not be updated yet')
    expect(answer.body.message).toContain('warning')
    // The log line reaches this process by another pipe than the answer: it may come a moment later.
    await until(() => /"level":"error","message":"artifact render failed".*posts\/[^"]*@/.test(folio.output()), 'the render failure line')
    const health = await folio.call('GET', '/healthz')
    expect(health.status).toBe(503)
    expect(health.body.code).toBe('DEGRADED')
    expect(health.body.data.render.failing).toBeGreaterThan(0)
    expect(health.body.data.render.lastError.path).toContain(post.slug)

    unfreeze()
    // Retries back off (2 s, 4 s, 8 s…: jobs.ts `retryDelayMs`): a loaded box may have used up a few before the unfreeze.
    await until(async () => (await folio.call('GET', '/healthz')).status === 200, 'the retried removal')
    expect((await folio.call('GET', `${B}/posts/${post.slug}`)).status).not.toBe(200)
  }, 60_000)

  test('a full DATA_DIR answers 503 STORAGE_FULL, and writes work again once space is freed', async () => {
    const mount = mkdtempSync(join(tmpdir(), 'folio-full-'))
    cleanups.push(() => rmSync(mount, { recursive: true, force: true }))
    expect(Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]).exitCode).toBe(0)
    cleanups.push(() => void Bun.spawnSync(['umount', '-l', mount]))
    const dataDir = join(mount, 'data')
    mkdirSync(dataDir)
    const { folio, token } = await start({ DATA_DIR: dataDir })
    // Fill the disk to the last block (dd stops at ENOSPC).
    const filler = join(mount, 'filler')
    Bun.spawnSync(['dd', 'if=/dev/zero', `of=${filler}`, 'bs=64k'], { stderr: 'ignore' })
    const big = 'x'.repeat(200)
    let answer = await folio.call('POST', `${B}/tags/save`, { token, body: { nameEn: big.slice(0, 50), language: 'all' } })
    for (let i = 0; i < 20 && answer.status !== 503; i++)
      answer = await folio.call('POST', `${B}/tags/save`, { token, body: { nameEn: `Tag ${i} ${big.slice(0, 40)}`, language: 'all' } })
    expect(answer.status).toBe(503)
    expect(answer.body.code).toBe('STORAGE_FULL')
    expect(answer.text).not.toContain('stack')
    rmSync(filler)
    const retry = await folio.call('POST', `${B}/tags/save`, { token, body: { nameEn: 'After space was freed', language: 'all' } })
    expect(retry.body.code).toBe('0000')
  }, 30_000)
})

describe('render threads (RENDER_WORKERS)', () => {
  test('a read is answered while a publish’s render is under way on a render thread; the publish then lands', async () => {
    const hold = holdFile()
    const { folio, token, save } = await start({ RENDER_WORKERS: '1', FOLIO_TEST_RENDER_HOLD: hold })
    const first = await save()
    expect((await folio.call('POST', `${B}/posts/${first.id}/publish`, { token })).body.code).toBe('0000')
    const draft = await save()
    // From here each slice waits on its thread (render-pool.ts `holdForTest`) until the file goes.
    writeFileSync(hold, '')
    let answered = false
    const publishing = folio.call('POST', `${B}/posts/${draft.id}/publish`, { token }).then((answer) => {
      answered = true
      return answer
    })
    await until(() => existsSync(`${hold}.held`), 'the render thread holding its slice')
    // The render thread is inside the publish's slice: the thread that answers reads is free.
    const read = await folio.call('GET', `${B}/posts/${first.slug}`)
    expect(read.status).toBe(200)
    expect(read.body.data.slug).toBe(first.slug)
    const health = (await folio.call('GET', '/healthz')).body.data.render
    expect(health.waiting).toBeGreaterThanOrEqual(1)
    expect(answered).toBe(false)
    rmSync(hold)
    const published = await publishing
    expect(published.body.code).toBe('0000')
    expect(published.body.data.sitemapUpdated).toBe(true)
    expect(readFileSync(join(folio.cacheDir, `api/v1/blog/posts/${draft.slug}/@`), 'utf8')).toContain(draft.slug)
    // The render thread and the copies thread (both have worked by now) run below the thread that
    // answers reads (shared/thread-priority.ts): Linux keeps a nice value per thread.
    await folio.settled()
    const pid = folio.process().pid
    const nice = (tid: string) => Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16])
    const threads = readdirSync(`/proc/${pid}/task`)
    expect(nice(String(pid))).toBe(0)
    expect(threads.filter((tid) => nice(tid) === 10).length).toBeGreaterThanOrEqual(2)
  }, 60_000)
})
