import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dir, '..', '..')

export interface RunResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs a command to its end (killed after `timeoutMs`); resolves with its output and exit code. */
export async function run(
  cmd: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunResult> {
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => proc.kill('SIGKILL'), options.timeoutMs ?? 300_000)
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    return { code, stdout, stderr }
  } finally {
    clearTimeout(timer)
  }
}

let venvBin: Promise<string> | undefined

/**
 * A tool of the pinned Python set (openapi-spec-validator, schemathesis), installed on first use
 * into the cached virtualenv by scripts/pytools.sh (a cold install takes a minute or two).
 */
export async function pythonTool(name: string): Promise<string> {
  venvBin ??= run(['bash', join(ROOT, 'scripts', 'pytools.sh'), 'install'], { timeoutMs: 600_000 }).then((out) => {
    if (out.code !== 0) throw new Error(`scripts/pytools.sh install failed:\n${out.stderr}`)
    return out.stdout.trim()
  })
  return join(await venvBin, name)
}
