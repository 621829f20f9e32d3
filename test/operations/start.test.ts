import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathOf } from '../../src/modules/artifacts/paths.ts'
import { startFolio } from '../support/folio.ts'
import { until, WAIT_LIMIT_MS } from '../support/until.ts'

// Tests here start several processes one after another (a server, its restarts, CLIs): on a loaded
// box that is more than the 30 s default, and each start has its own bound.
setDefaultTimeout(90_000)

const ROOT = resolve(import.meta.dir, '../..')
const base = mkdtempSync(join(tmpdir(), 'folio-start-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
let n = 0
const folders = () => ({ DATA_DIR: join(base, `data-${++n}`), CACHE_DIR: join(base, `cache-${n}`) })

/** Starts `bun src/main.ts` expecting it to refuse: its exit code and stderr lines. */
async function refusedStart(env: Record<string, string>) {
  const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_LIMIT_MS)
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  clearTimeout(timer)
  return { code, lines: stderr.trim().split('\n') }
}

/** What a listing command must not load: Elysia and TypeBox, the renderer and the publishing engine, heavy libraries. */
const HEAVY =
  /node_modules\/(elysia|@sinclair\/typebox|preact|pinyin-pro|image-size|sharp|tar|turndown|@modelcontextprotocol)\/|src\/(main\.ts|modules\/(publishing|artifacts)\/|modules\/site\/(render|templates\/))/

/** The paths of every module `cli ARGS` loaded (test/fixtures/loaded-modules.ts), after it succeeded. */
async function modulesLoadedBy(env: Record<string, string>, args: string[]): Promise<string[]> {
  const file = join(base, `modules-${args.join('-')}.txt`)
  const cli = Bun.spawn([process.execPath, '--preload', join(ROOT, 'test/fixtures/loaded-modules.ts'), join(ROOT, 'src/cli.ts'), ...args], {
    env: { ...env, FOLIO_TEST_MODULES: file },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  expect(await cli.exited).toBe(0)
  return (await Bun.file(file).text()).split('\n')
}

describe('one instance per data folder, clear start-up failures', () => {
  test('a second server on the same DATA_DIR refuses in one line and leaves the first one alone', async () => {
    const dirs = folders()
    const first = await startFolio(dirs)
    try {
      const second = await refusedStart({ ...dirs, SITE_URL: 'https://other.example.com' })
      expect(second.code).toBe(1)
      expect(second.lines).toEqual([
        `folio: DATA_DIR ${dirs.DATA_DIR} is in use by another running Folio (it holds ${join(dirs.DATA_DIR, 'folio.lock')}); stop that one first`,
      ])
      expect((await first.call('GET', '/api/v1/blog/categories')).body.code).toBe('0000')
    } finally {
      await first.stop()
    }
    // The lock goes with the process, even after kill -9.
    await first.restart()
    await first.stop(true)
    await first.restart()
    await first.dispose()
  })

  test('CLI commands other than rebuild leave a live CACHE_DIR alone; listings load only what they need', async () => {
    const folio = await startFolio({ ...folders(), SITE_URL: 'https://blog.example.com' })
    try {
      const sitemap = join(folio.cacheDir, pathOf({ kind: 'robots' }))
      const before = await Bun.file(sitemap).text()
      expect(before).toContain('https://blog.example.com')
      // Run with another SITE_URL, as a mistyped cron environment would.
      const other = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), 'token', 'list'], {
        env: { ...folio.env, SITE_URL: 'https://other.example.com' },
        stdout: 'pipe',
        stderr: 'pipe',
      })
      expect(await other.exited).toBe(0)
      expect(await Bun.file(sitemap).text()).toBe(before)
      // The listings start at once (docs/benchmarks.md, "CLI start"): none loads the web framework,
      // the renderer or a heavy library, so a later import cannot bring them back unseen.
      const listings = [
        ['token', 'list'],
        ['user', 'list'],
        ['comments', 'list'],
        ['webhook', 'list'],
        ['pages', 'list'],
      ]
      const loaded = await Promise.all(listings.map((args) => modulesLoadedBy(folio.env, args)))
      for (const [i, modules] of loaded.entries()) {
        expect(modules).toContain(join(ROOT, `src/${listings[i]![0] === 'user' ? 'people' : listings[i]![0]}-cli.ts`))
        expect({ command: listings[i]!.join(' '), heavy: modules.filter((path) => HEAVY.test(path)) }).toEqual({
          command: listings[i]!.join(' '),
          heavy: [],
        })
      }
    } finally {
      await folio.dispose()
    }
  })

  test('a port in use fails in one line before anything is migrated or rendered', async () => {
    const taken = createServer()
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done))
    const port = (taken.address() as { port: number }).port
    try {
      const dirs = folders()
      const out = await refusedStart({ ...dirs, PORT: String(port) })
      expect(out.code).toBe(1)
      expect(out.lines).toEqual([`folio: cannot listen on 127.0.0.1:${port}: port ${port} is already in use`])
      expect(existsSync(join(dirs.DATA_DIR, 'folio.db'))).toBe(false)
      expect(readdirSync(dirs.CACHE_DIR)).toEqual([])
    } finally {
      taken.close()
    }
  })

  test('a HOST that is not an address here, and unusable folders, fail in one line', async () => {
    const host = await refusedStart({ ...folders(), HOST: 'not.a.host' })
    expect(host.code).toBe(1)
    expect(host.lines).toEqual([expect.stringMatching(/^folio: cannot listen on not\.a\.host:0: /)])

    const file = join(base, 'a-file')
    writeFileSync(file, 'not a folder')
    const data = await refusedStart({ ...folders(), DATA_DIR: join(file, 'data') })
    expect(data.code).toBe(1)
    expect(data.lines).toEqual([`folio: DATA_DIR ${join(file, 'data')} is not usable (ENOTDIR): it must be a folder this user can write`])
    const port = await refusedStart({ ...folders(), PORT: 'abc' })
    expect(port.lines).toEqual(['folio: invalid configuration: PORT: expected a whole number, got "abc"'])
    const cache = await refusedStart({ ...folders(), CACHE_DIR: file })
    expect(cache.lines).toEqual([expect.stringMatching(/^folio: CACHE_DIR .* is not usable/)])
  })

  test('SIGTERM to the process npm start started stops the server', async () => {
    const dirs = folders()
    const npm = Bun.spawn(['npm', 'start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, ...dirs, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const timer = setTimeout(() => npm.kill('SIGKILL'), 30_000)
    let out = ''
    const reader = npm.stdout.getReader()
    while (!/"message":"listening"/.test(out)) {
      const { value, done } = await reader.read()
      if (done) break
      out += new TextDecoder().decode(value)
    }
    const url = /"url":"([^"]+)"/.exec(out)![1]!
    expect((await fetch(`${url}/api/v1/blog/categories`)).status).toBe(200)
    npm.kill('SIGTERM')
    await npm.exited
    clearTimeout(timer)
    // Bounded wait for the server to go: nothing listens there any more.
    await until(
      () =>
        fetch(`${url}/api/v1/blog/categories`).then(
          () => false,
          () => true,
        ),
      'the server to stop listening',
    )
  })

  test('on SIGTERM a request in flight is answered, and a new connection is refused, never reset', async () => {
    const folio = await startFolio(folders())
    const { hostname, port } = new URL(folio.url)
    const body = '{"language":"en","title":"Half a title","contentHtml":"<p>Hi</p>"}'
    // The request in flight, by hand: its head asks `Expect: 100-continue`, so the server's
    // "100 Continue" is the signal that it has the request, its body still to come.
    const socket = connect(Number(port), hostname)
    socket.setEncoding('utf8')
    let received = ''
    socket.on('data', (chunk: string) => (received += chunk))
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    await new Promise<void>((done) => socket.on('connect', () => done()))
    socket.write(
      `POST /api/v1/blog/posts/check HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nexpect: 100-continue\r\n\r\n`,
    )
    await until(() => received.startsWith('HTTP/1.1 100'), 'the server to take the request in flight')
    folio.process().kill('SIGTERM')
    // The server logs "stopping" in the same step as it stops accepting (src/main.ts `stop`).
    await until(() => folio.logs().some((line) => line.message === 'stopping'), 'the server to stop accepting')
    const late = await fetch(`${folio.url}/api/v1/blog/categories`).then(
      (response) => `answered ${response.status}`,
      (error: { code?: string }) => error.code,
    )
    expect(late).toBe('ECONNREFUSED')
    socket.write(body)
    expect(await folio.process().exited).toBe(0)
    await closed
    const answer = received.slice(received.indexOf('\r\n\r\n') + 4)
    expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])).toBeLessThan(500)
    expect((JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string }).code).toBeString()
    await folio.dispose()
  })
})
