import { resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { atMost, WAIT_LIMIT_MS } from './until.ts'

/** Litestream replicating one Folio database, started by a test and stopped by it. */
export interface RunningLitestream {
  /** SIGTERM (Litestream syncs once more, then exits) or, with `hard`, SIGKILL as a dying box would. */
  stop(hard?: boolean): Promise<void>
  /** What Litestream (and the command it runs) printed so far. */
  output(): string
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number>
}

const SCRIPT = resolve(import.meta.dir, '../../scripts/litestream.sh')

/** Enough for a cold `go install` of Litestream on a shared 2-core machine. */
export const LITESTREAM_SETUP_TIMEOUT_MS = 10 * 60 * 1000

/** Build Litestream once (cached across runs by scripts/litestream.sh). */
export async function installLitestream(): Promise<void> {
  if ((await script(['path'], process.env)).code === 0) return
  const started = Date.now()
  console.error('test/support/litestream: building Litestream from source (cached afterwards)')
  const built = await script(['install'], process.env)
  if (built.code !== 0) throw new Error(`scripts/litestream.sh install failed (exit ${built.code}):\n${built.stderr}`)
  console.error(`test/support/litestream: Litestream built in ${Math.round((Date.now() - started) / 1000)}s`)
}

/**
 * `scripts/litestream.sh replicate [command…]` with these settings (DATA_DIR, REPLICA_S3_*), in the
 * background; with a command, Litestream runs it and stops with it.
 */
export function startLitestream(env: Record<string, string>, command: string[] = []): RunningLitestream {
  const child: Subprocess<'ignore', 'pipe', 'pipe'> = Bun.spawn(['bash', SCRIPT, 'replicate', ...command], {
    env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  let printed = ''
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) printed += decoder.decode(chunk)
  }
  // Both end once the processes' pipes close: what `output()` reads after a stop is all of it.
  const collected = Promise.all([collect(child.stdout), collect(child.stderr)])
  return {
    async stop(hard = false) {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill(hard ? 'SIGKILL' : 'SIGTERM')
      // Bounded: Litestream's shutdown sync is short, but a loaded box stretches it; past the ceiling it is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_LIMIT_MS)
      await child.exited
      clearTimeout(timer)
      await atMost(collected)
    },
    output: () => printed,
    // The exit code once the output is all read.
    exited: child.exited.then(async (code) => (await atMost(collected), code)),
  }
}

/** `scripts/litestream.sh restore [FILE]`: the replica's latest state into FILE (default DATA_DIR/folio.db). */
export function restoreReplica(env: Record<string, string>, file?: string) {
  // Bounded: a restore from an unreachable store must not hang the test.
  return script(['restore', ...(file ? [file] : [])], env, 60_000)
}

async function script(args: string[], env: Record<string, string | undefined>, timeout?: number) {
  const proc = Bun.spawn(['bash', SCRIPT, ...args], { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', timeout })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code, stdout, stderr }
}
