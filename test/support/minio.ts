import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** A real MinIO server on loopback, started for one test file and stopped by it. */
export interface RunningMinio {
  /** `http://127.0.0.1:<port>`: what S3_ENDPOINT would be. */
  endpoint: string
  port: number
  accessKey: string
  secretKey: string
  /** Stop the server (bounded wait, then SIGKILL) and delete its data folder. */
  stop(): Promise<void>
  /** Stop the server but keep its data, as a store that went down would. */
  halt(): Promise<void>
  /** Start it again after `halt`, on the same port and data. */
  resume(): Promise<void>
}

const SCRIPT = resolve(import.meta.dir, '../../scripts/minio.sh')
const ACCESS_KEY = 'folio-test'
const SECRET_KEY = 'folio-test-secret'

/**
 * Build MinIO once (cached across runs by scripts/minio.sh), then start it on a free
 * loopback port in a fresh temp folder and wait until it answers its health check.
 * A cold build takes a few minutes: call this from beforeAll with a long timeout
 * (see MINIO_SETUP_TIMEOUT_MS).
 */
export async function startMinio(): Promise<RunningMinio> {
  if (!(await run(['path'], 'path').catch(() => ''))) {
    // Say why the first run sits silent for minutes.
    const started = Date.now()
    console.error('test/support/minio: building MinIO from source (cached afterwards; a cold build takes about 3 minutes)')
    await run(['install'], 'install')
    console.error(`test/support/minio: MinIO built in ${Math.round((Date.now() - started) / 1000)}s`)
  }
  const dir = await mkdtemp(join(tmpdir(), 'folio-minio-'))
  const env = {
    ...process.env,
    MINIO_ROOT_USER: ACCESS_KEY,
    MINIO_ROOT_PASSWORD: SECRET_KEY,
    // A test run that crashes before stop() still takes its server down.
    FOLIO_OWNER_PID: String(process.pid),
  }

  // A free port can be taken between our probe and MinIO's bind: retry a few times.
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    try {
      await run(['start', dir, String(port)], 'start', env)
    } catch (error) {
      lastError = error
      continue
    }
    let stopped = false
    return {
      endpoint: `http://127.0.0.1:${port}`,
      port,
      accessKey: ACCESS_KEY,
      secretKey: SECRET_KEY,
      async stop() {
        if (stopped) return
        stopped = true
        await run(['stop', dir], 'stop')
        await rm(dir, { recursive: true, force: true })
      },
      halt: () => run(['stop', dir], 'stop').then(() => undefined),
      resume: () => run(['start', dir, String(port)], 'start', env).then(() => undefined),
    }
  }
  await rm(dir, { recursive: true, force: true })
  throw lastError
}

/** Enough for a cold `go install` of MinIO on a 2-core machine, plus its start. */
export const MINIO_SETUP_TIMEOUT_MS = 15 * 60 * 1000

async function run(args: string[], what: string, env: Record<string, string | undefined> = process.env) {
  const proc = Bun.spawn(['bash', SCRIPT, ...args], { env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  if (code !== 0) throw new Error(`scripts/minio.sh ${what} failed (exit ${code}):\n${stderr}${stdout}`)
  return stdout.trim()
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolvePort(port) : reject(new Error('no free port'))))
    })
  })
}
