import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { atMost } from './until.ts'

const ROOT = resolve(import.meta.dir, '..', '..')
const BUN = process.execPath

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: { code: string; message: string; data: T }
  text: string
}

export interface Folio {
  url: string
  dataDir: string
  cacheDir: string
  env: Record<string, string>
  /** Runs the admin CLI against this instance's database; resolves with its output and exit code. */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>
  /** A new token with these scopes. */
  token(...scopes: string[]): Promise<string>
  /** A JSON call: `body` is sent as JSON unless it is a string or FormData. */
  call<T = any>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>
  /** The server's recent log lines (stdout, JSON), parsed. */
  logs(): Record<string, any>[]
  /** Stops the process (SIGTERM, or SIGKILL with `hard`). */
  stop(hard?: boolean): Promise<void>
  /** Starts the process again on the same data (after a stop). */
  restart(): Promise<void>
  /** Stops and removes the temp folders. */
  dispose(): Promise<void>
  process(): Subprocess
  /** Resolves once the server has rendered every due artifact job (what a CLI write recorded, say): `/healthz` shows nothing due. */
  rendered(): Promise<void>
  /**
   * Resolves once no artifact job is left at all, due or not: also the compressed copies a burst
   * of passes leaves for later (written within about a second; docs/publishing.md).
   */
  settled(): Promise<void>
  /** What the server wrote to stdout (its JSON log lines; the most recent part of it), as text. */
  output(): string
  /**
   * Moves the server's clock `ms` forward (every component and thread of it), resolving once it has;
   * only for a server started with `movableClock` (docs/testing.md, "Time"). Kept across restarts.
   */
  advanceClock(ms: number): Promise<void>
  /** The server's time, epoch ms: the real clock plus what `advanceClock` moved it. */
  now(): number
}

/**
 * How long a server may take to listen before its test fails: a ceiling for a hang, not a speed
 * check. Two test files run at once on two cores (scripts/test.sh), so a start can take several seconds.
 */
const START_LIMIT_MS = 40_000

async function waitForListening(
  child: Subprocess<'ignore', 'pipe', 'pipe'>,
  output: string[],
): Promise<{ url: string; drained: Promise<void> }> {
  const reader = child.stdout.getReader()
  const decoder = new TextDecoder()
  let buffered = ''
  let timer: Timer | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`folio did not start within ${START_LIMIT_MS / 1000} s: ${buffered}`)), START_LIMIT_MS)
  })
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), timeout])
      if (done) throw new Error(`folio exited before listening: ${buffered}\n${await new Response(child.stderr).text()}`)
      buffered += decoder.decode(value)
      const match = /"message":"listening","url":"([^"]+)"/.exec(buffered)
      if (match) {
        reader.releaseLock()
        output.push(buffered)
        return { url: match[1]!, drained: drain(child.stdout, output) }
      }
    }
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  } finally {
    clearTimeout(timer)
  }
}

// Keep reading stdout so a chatty server never blocks on a full pipe; the last lines are kept for logs().
async function drain(stream: ReadableStream<Uint8Array>, output: string[]) {
  const decoder = new TextDecoder()
  for await (const chunk of stream) {
    output.push(decoder.decode(chunk, { stream: true }))
    if (output.length > 2000) output.splice(0, output.length - 1000)
  }
}

/**
 * Starts the real server (`bun src/main.ts`) on a free loopback port with temp data and cache folders.
 * With `movableClock`, the same server through test/support/clocked-main.ts, whose clock the test
 * moves forward with `advanceClock` instead of waiting on the real one.
 */
export async function startFolio(env: Record<string, string> = {}, options: { movableClock?: boolean } = {}): Promise<Folio> {
  const base = mkdtempSync(join(tmpdir(), 'folio-test-'))
  const dataDir = env.DATA_DIR ?? join(base, 'data')
  const cacheDir = env.CACHE_DIR ?? join(base, 'cache')
  const tokenNames = new Map<string, number>()
  const fullEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    CACHE_DIR: cacheDir,
    // The harness learns the port from the info-level "listening" line, so it needs at least info.
    LOG_LEVEL: 'info',
    // Suites make hundreds of calls a minute from one IP; the rate-limit test sets its own.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Test receivers listen on loopback; test/security/webhooks.test.ts sets 0 to check the refusal.
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...env,
  }
  let child: Subprocess<'ignore', 'pipe', 'pipe'>
  let url = ''
  // Resolves once the process's stdout has ended: every line it wrote is in `output`.
  let drained = Promise.resolve()
  const output: string[] = []
  // The moved clock: how far ahead it is, and the server's acknowledgements of each move.
  let clockOffset = 0
  const acks: (() => void)[] = []
  const entry = join(ROOT, options.movableClock ? 'test/support/clocked-main.ts' : 'src/main.ts')
  const launch = async () => {
    const clockEnv = options.movableClock ? { FOLIO_TEST_CLOCK_OFFSET_MS: String(clockOffset) } : {}
    child = Bun.spawn([BUN, entry], {
      cwd: ROOT,
      env: { ...fullEnv, ...clockEnv },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      ...(options.movableClock ? { ipc: () => acks.shift()?.() } : {}),
    })
    const listening = await waitForListening(child, output)
    // A restart keeps the first port when it was fixed; with PORT=0 it gets a new one.
    url = listening.url
    drained = listening.drained
  }
  await launch()
  if (fullEnv.PORT === '0') fullEnv.PORT = new URL(url).port

  const folio: Folio = {
    get url() {
      return url
    },
    dataDir,
    cacheDir,
    env: fullEnv,
    output: () => output.join(''),
    async cli(...args) {
      const proc = Bun.spawn([BUN, join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env: fullEnv, stdout: 'pipe', stderr: 'pipe' })
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
      return { code, stdout, stderr }
    },
    async token(...scopes) {
      // Names are unique among active tokens: the first of a set of scopes is `test-<scopes>` (tests
      // read that name back), later ones `-2`, `-3`…, and a name the database already holds is skipped.
      const base = `test-${scopes.join('+') || 'none'}`
      for (;;) {
        const n = (tokenNames.get(base) ?? 0) + 1
        tokenNames.set(base, n)
        const out = await folio.cli('token', 'create', '--name', n === 1 ? base : `${base}-${n}`, '--scopes', scopes.join(','))
        if (out.code === 0) return out.stdout.trim()
        if (!out.stderr.includes('already named')) throw new Error(`token create failed: ${out.stderr}`)
      }
    },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      let body: string | FormData | undefined
      if (options.body instanceof FormData) body = options.body
      else if (options.body !== undefined) {
        // A string is sent as it is (to test malformed JSON); anything else is serialized.
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
        headers['content-type'] ??= 'application/json'
      }
      const response = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' })
      const text = await response.text()
      let parsed: any = null
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {
        parsed = null
      }
      return { status: response.status, headers: response.headers, body: parsed, text }
    },
    logs: () =>
      output
        .join('')
        .split('\n')
        .flatMap((line) => {
          try {
            return [JSON.parse(line)]
          } catch {
            return [] // a line cut by the buffer's trimming, or not JSON
          }
        }),
    async stop(hard = false) {
      child.kill(hard ? 'SIGKILL' : 'SIGTERM')
      await child.exited
      // The exit can be seen before the last lines are read from the pipe: logs() after a stop has them
      // all (a ceiling, should anything else hold the pipe open).
      await atMost(drained)
    },
    async restart() {
      await launch()
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) await folio.stop()
      rmSync(base, { recursive: true, force: true })
    },
    process: () => child,
    async advanceClock(ms) {
      if (!options.movableClock) throw new Error('advanceClock: start the server with { movableClock: true }')
      // A stopped server is told at its restart (time moves on while it is down).
      if (child.exitCode === null && child.signalCode === null) {
        const acked = new Promise<void>((resolve) => acks.push(resolve))
        child.send({ advance: ms })
        await acked
      }
      clockOffset += ms
    },
    now: () => Date.now() + clockOffset,
    rendered: () => renderedWhen((render) => render.due === 0 && render.waiting === 0, 'the due artifact jobs'),
    settled: () => renderedWhen((render) => render.pending === 0 && render.waiting === 0, 'every artifact job'),
  }
  /** Polls `/healthz` until its render backlog satisfies `done`. Bounded: the sweeper runs every second; a backlog left after 30 s is a failure. */
  async function renderedWhen(done: (render: { due: number; pending: number; waiting: number }) => boolean, what: string): Promise<void> {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(100)) {
      const { render } = (
        (await (await fetch(`${url}/healthz`)).json()) as { data: { render: { due: number; pending: number; waiting: number } } }
      ).data
      if (done(render)) return
    }
    throw new Error(`the server did not render ${what} within 30 s`)
  }
  return folio
}
