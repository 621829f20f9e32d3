import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { WAIT_LIMIT_MS } from './until.ts'

const ROOT = resolve(import.meta.dir, '..', '..')

export interface Caddy {
  url: string
  /** Caddy's process id (a benchmark reads its CPU time). */
  pid: number
  stop(): Promise<void>
}

async function run(command: string[]): Promise<void> {
  const proc = Bun.spawn(command, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`${command.join(' ')} failed (${code}): ${err}`)
}

/** Installs Debian's caddy when it is missing: through scripts/caddy.sh where it exists, else apt-get. */
export async function ensureCaddy(): Promise<void> {
  if (Bun.which('caddy')) return
  if (existsSync(join(ROOT, 'scripts/caddy.sh'))) await run(['bash', 'scripts/caddy.sh', 'install'])
  else {
    await run(['apt-get', 'update', '-qq'])
    await run(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', 'caddy'])
  }
  if (!Bun.which('caddy')) throw new Error('caddy did not install')
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    })
  })
}

/**
 * Caddy with the project's Caddyfile on a free loopback port, in front of `apiUrl` and serving
 * `cacheDir`. The admin endpoint is off, so parallel runs never collide.
 */
export async function startCaddy(options: {
  apiUrl: string
  cacheDir: string
  caddyfile?: string
  port?: number
  /** More variables for the Caddyfile's `{$VAR}` placeholders (CDN_MAX_AGE, say). */
  env?: Record<string, string>
}): Promise<Caddy> {
  await ensureCaddy()
  for (let attempt = 0; attempt < 3; attempt++) {
    // A chosen port (a SITE_URL that must name Caddy) is tried first, then free ones.
    const port = attempt === 0 && options.port ? options.port : await freePort()
    const child: Subprocess<'ignore', 'ignore', 'pipe'> = Bun.spawn(
      ['caddy', 'run', '--config', options.caddyfile ?? join(ROOT, 'Caddyfile'), '--adapter', 'caddyfile'],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          FOLIO_CADDY_HOST: '127.0.0.1',
          FOLIO_CADDY_PORT: String(port),
          FOLIO_API: new URL(options.apiUrl).host,
          CACHE_DIR: resolve(options.cacheDir),
          XDG_DATA_HOME: join(resolve(options.cacheDir), '..', 'caddy-data'),
          XDG_CONFIG_HOME: join(resolve(options.cacheDir), '..', 'caddy-config'),
          // The Caddyfile's relay socket for reads with no file (one per Caddy).
          FOLIO_CADDY_RELAY: join(resolve(options.cacheDir), '..', `caddy-relay-${port}.sock`),
          // As scripts/start-caddy.sh makes it: CSP_REPORT_URL's directive for the pages' policy.
          ...(options.env?.CSP_REPORT_URL ? { FOLIO_CSP_REPORT: `; report-uri ${options.env.CSP_REPORT_URL}` } : {}),
          ...options.env,
        },
        stdin: 'ignore',
        stdout: 'ignore',
        stderr: 'pipe',
      },
    )
    // Drain Caddy's log so it never blocks on a full pipe; keep the tail for error messages.
    let log = ''
    void (async () => {
      for await (const chunk of child.stderr) log = (log + new TextDecoder().decode(chunk)).slice(-8_000)
    })()
    const url = `http://127.0.0.1:${port}`
    // A process start on a loaded box: the shared ceiling, not a speed check.
    const deadline = Date.now() + WAIT_LIMIT_MS
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        await fetch(`${url}/api/v1/blog/robots.txt`, { signal: AbortSignal.timeout(500) })
        return {
          url,
          pid: child.pid,
          async stop() {
            child.kill('SIGTERM')
            const killed = setTimeout(() => child.kill('SIGKILL'), 5_000)
            await child.exited
            clearTimeout(killed)
          },
        }
      } catch {
        await Bun.sleep(50)
      }
    }
    child.kill('SIGKILL')
    await child.exited
    // Another process may have taken the port between the probe and Caddy's bind: try a new one.
    if (attempt === 2) throw new Error(`caddy did not start: ${log}`)
  }
  throw new Error('unreachable')
}
