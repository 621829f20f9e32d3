import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { CRASH_STEPS } from '../../src/modules/publishing/crash-hook.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startCaddy } from '../support/caddy.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { until } from '../support/until.ts'

// The engine's accidents (docs/operations.md, "Faults"): a kill between any two steps of a render
// pass, damaged files in CACHE_DIR, a cache invalidation. One server, restarted between faults.
const B = '/api/v1/blog'
let folio: Folio
let token: string
let publish: () => Promise<{ id: number; slug: string; title: string }>
const scratch = mkdtempSync(join(tmpdir(), 'folio-faults-'))
beforeAll(async () => {
  folio = await startFolio({ SITE_URL: 'https://blog.example.org' })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  draft = () => ({ ...publishablePost(categoryId, authorId), status: 0 })
  publish = () => publishNewPost(folio, token, draft())
  await publish()
})
let draft: () => Record<string, unknown>
afterAll(async () => {
  await folio?.dispose()
  rmSync(scratch, { recursive: true, force: true })
})

/** Every main file under CACHE_DIR (copies, temp and bookkeeping files aside), as text. */
function mainFiles(cacheDir: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(cacheDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.') || /\.(br|gz)$/.test(entry.name)) continue
    const file = join(entry.parentPath, entry.name)
    files.set(relative(cacheDir, file), readFileSync(file, 'utf8'))
  }
  return files
}

/** Every copy beside a main file decompresses to that file's bytes. */
function expectCopiesAgree(cacheDir: string): void {
  for (const [path, text] of mainFiles(cacheDir)) {
    const file = join(cacheDir, path)
    if (existsSync(`${file}.br`)) expect([path, brotliDecompressSync(readFileSync(`${file}.br`)).toString()]).toEqual([path, text])
    if (existsSync(`${file}.gz`)) expect([path, gunzipSync(readFileSync(`${file}.gz`)).toString()]).toEqual([path, text])
  }
}

/** The files a fresh rebuild of the same database writes into an empty CACHE_DIR (the server stopped meanwhile). */
async function freshRebuild(): Promise<Map<string, string>> {
  const cacheDir = mkdtempSync(join(scratch, 'fresh-'))
  const own = folio.env.CACHE_DIR!
  folio.env.CACHE_DIR = cacheDir
  try {
    const out = await folio.cli('rebuild')
    expect(out.code).toBe(0)
  } finally {
    folio.env.CACHE_DIR = own
  }
  return mainFiles(cacheDir)
}

const sql = (query: string, ...params: (string | number)[]) => {
  const db = new Database(join(folio.dataDir, 'folio.db'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    db.query(query).run(...params)
  } finally {
    db.close()
  }
}

const health = async () => ((await (await fetch(`${folio.url}/healthz`)).json()) as { data: any }).data

describe('faults', () => {
  test('a kill at every step of a pass, a count moved back meanwhile: after restart every file is what a fresh rebuild writes', async () => {
    await folio.settled()
    await folio.stop()
    for (const step of CRASH_STEPS) {
      folio.env.FOLIO_TEST_CRASH_AT = step
      await folio.restart()
      // The publish's pass kills the server at `step`; the request never gets its answer.
      const saved = await folio.call('POST', `${B}/posts/save`, { token, body: draft() })
      await folio.call('POST', `${B}/posts/${saved.body.data.id}/publish`, { token }).catch(() => null)
      await folio.process().exited
      expect([step, folio.process().signalCode]).toEqual([step, 'SIGKILL'])
      // Another change moves the author's post count back: what the jobs now render equals the
      // manifest's old hashes, while the disk may hold the killed pass's new bytes. (Made behind
      // the engine's back, it needs the killed pass's jobs to be still there: not after `finished`.)
      if (step !== 'finished') sql('update posts set status = 0 where id = ?', saved.body.data.id)
      delete folio.env.FOLIO_TEST_CRASH_AT
      await folio.restart()
      await folio.settled()
      const repaired = mainFiles(folio.cacheDir)
      expectCopiesAgree(folio.cacheDir)
      await folio.stop()
      const fresh = await freshRebuild()
      expect([step, [...repaired.keys()].sort()]).toEqual([step, [...fresh.keys()].sort()])
      for (const [path, text] of fresh) expect([step, path, repaired.get(path)]).toEqual([step, path, text])
    }
    await folio.restart()
  }, 120_000)

  test('damaged files (emptied, truncated, garbage of the same size, a bad copy) are found by rebuild --verify and by the check after an unclean start', async () => {
    await folio.settled()
    const files = [...mainFiles(folio.cacheDir).keys()].filter((path) => path.startsWith('api/'))
    const [emptied, truncated, garbled, badCopy] = files
    const expected = mainFiles(folio.cacheDir)
    const file = (path: string) => join(folio.cacheDir, path)
    // The server's memory cache serves no bytes the manifest has not recorded: the live answer instead.
    const list = `${B}/posts?language=en`
    const before = await (await fetch(`${folio.url}${list}`)).text()
    truncateSync(file('api/v1/blog/posts/@language=en'), 5)
    const read = await fetch(`${folio.url}${list}`)
    expect([read.status, JSON.parse(await read.text())]).toEqual([200, JSON.parse(before)])
    writeFileSync(file('api/v1/blog/posts/@language=en'), expected.get('api/v1/blog/posts/@language=en')!)
    await folio.stop()
    truncateSync(file(emptied!), 0)
    truncateSync(file(truncated!), 10)
    writeFileSync(file(garbled!), 'x'.repeat(readFileSync(file(garbled!)).length))
    writeFileSync(`${file(badCopy!)}.gz`, Bun.gzipSync(Buffer.from('not the bytes')))
    const out = await folio.cli('rebuild', '--verify')
    expect(out.code).toBe(0)
    expect(out.stdout).toContain('verified artifacts: 4 damaged, 4 repaired')
    expect(mainFiles(folio.cacheDir)).toEqual(expected)
    expectCopiesAgree(folio.cacheDir)

    // The same damage under a server that was killed: its next start checks every file in the background.
    await folio.restart()
    await folio.settled()
    await folio.stop(true)
    truncateSync(file(garbled!), 0)
    await folio.restart()
    await until(async () => (await health()).render.integrity.repaired > 0, 'the background integrity check')
    const integrity = (await health()).render.integrity
    expect(integrity).toMatchObject({ damagedFound: 1, repaired: 1, lastDamaged: [garbled] })
    expect(readFileSync(file(garbled!), 'utf8')).toBe(expected.get(garbled!)!)
    // Four starts and a rebuild: a loaded box takes more than a minute.
  }, 120_000)

  test('a cache invalidation keeps the files served, marked stale, while it re-renders; an empty CACHE_DIR waits', async () => {
    await folio.settled()
    const post = readdirSync(join(folio.cacheDir, 'api/v1/blog/posts')).find((name) => !name.startsWith('@'))!
    await folio.stop()
    writeFileSync(join(folio.cacheDir, '.folio-artifacts'), 'stamp of the old code')
    await folio.restart()
    // Answered at once from the old files, not 503 SERVICE_STARTING; marked until the rebuild ends.
    const read = await fetch(`${folio.url}${B}/posts/${post}`)
    expect(read.status).toBe(200)
    const seen = [read.headers.get('x-folio-artifacts'), (await health()).status]
    expect([
      ['stale', 'stale'],
      [null, 'ok'],
    ]).toContainEqual(seen)
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(100)) if ((await health()).status === 'ok') break
    expect((await fetch(`${folio.url}${B}/posts/${post}`)).headers.get('x-folio-artifacts')).toBeNull()
    expect(readFileSync(join(folio.cacheDir, '.folio-artifacts'), 'utf8')).not.toBe('stamp of the old code')
  }, 60_000)

  test('behind Caddy, a read with no file while the API is down is 503 with Retry-After, never 404; files are still served', async () => {
    const post = await publish()
    const renamed = `${post.slug}-renamed`
    const body = { ...draft(), status: 1, id: post.id, slug: renamed, title: post.title }
    expect((await folio.call('POST', `${B}/posts/save`, { token, body })).body.code).toBe('0000')
    await folio.settled()
    const caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
    try {
      const read = (path: string) => fetch(`${caddy.url}${path}`, { redirect: 'manual' })
      // Without a file: a deep list page, the old slug (301), /healthz; with one: the post.
      const missing = [`${B}/posts?current=99`, `${B}/posts/${post.slug}`, '/healthz']
      expect(await Promise.all(missing.map(async (path) => (await read(path)).status))).toEqual([200, 301, 200])
      await folio.stop(true)
      for (const path of missing) {
        const answer = await read(path)
        expect([path, answer.status, answer.headers.get('retry-after')]).toEqual([path, 503, '5'])
        expect(((await answer.json()) as { code: string }).code).toBe('SERVICE_UNAVAILABLE')
      }
      expect((await read(`${B}/posts/${renamed}`)).status).toBe(200)
      await folio.restart()
      expect((await read(`${B}/posts/${post.slug}`)).status).toBe(301)
    } finally {
      await caddy.stop()
    }
  }, 60_000)

  test('a wall clock stepped back: deliveries and render jobs a fast clock set an hour ahead are due at once', async () => {
    let answer = 500
    let received = 0
    const receiver = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => {
        received++
        return new Response(null, { status: answer })
      },
    })
    try {
      const url = `http://127.0.0.1:${receiver.port}/hook`
      expect(
        (await folio.cli('webhook', 'add', '--url', url, '--secret', 'a-long-enough-secret', '--events', 'blog.post.published')).code,
      ).toBe(0)
      const post = await publish()
      await until(() => received > 0, 'the first delivery')
      await folio.settled()
      await folio.stop()
      // What an hour run fast leaves behind once NTP steps the clock back: a retry and a render job an hour out.
      const ahead = Date.now() + 60 * 60 * 1000
      sql(`update webhook_deliveries set next_attempt_at = ? where status = 'pending'`, ahead)
      sql('update posts set title = ? where id = ?', 'Retitled on a fast clock', post.id)
      sql('insert into artifact_jobs (path, due_at, seq) values (?, ?, 0)', `api/v1/blog/posts/${post.slug}/@`, ahead)
      answer = 200
      await folio.restart()
      const file = join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`)
      // Due at once, not in an hour: a bounded wait (a restart and the webhook worker's start) for both.
      await until(() => received >= 2 && readFileSync(file, 'utf8').includes('Retitled on a fast clock'), 'the retry and the render job')
      expect(received).toBeGreaterThanOrEqual(2)
      expect(readFileSync(file, 'utf8')).toContain('Retitled on a fast clock')
      expect((await health()).render.rebased).toBe(1)
    } finally {
      await receiver.stop(true)
    }
  }, 60_000)

  test('publication order survives a clock step: a post published after it lists above those published on the fast clock', async () => {
    const fast = await publish()
    await folio.stop()
    // Published while the clock ran an hour fast.
    const ahead = new Date(Date.now() + 60 * 60 * 1000).toISOString().slice(0, 19).replace('T', ' ')
    sql('update posts set published_at = ? where id = ?', ahead, fast.id)
    await folio.restart()
    const after = await publish()
    expect((after as { publishedAt?: string }).publishedAt! >= ahead).toBe(true)
    const list = await folio.call('GET', `${B}/posts?language=en&current=1&size=2`)
    expect(list.body.data.records.map((p: { id: number }) => p.id)).toEqual([after.id, fast.id])
  }, 60_000)
})
