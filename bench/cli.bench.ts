/**
 * CLI start (issue 29 item 3): `bun bench/cli.bench.ts [rounds]` (default 15).
 *
 * Each command that neither renders nor announces a change (`--help`, `token list`, `user list`,
 * `comments list`, `webhook list`, `pages list`) against a bare `bun -e 0` start, alternated in one
 * run on a data folder already at today's schema (one `token create` made it). Whole processes, as
 * a shell or a test starts them; printed per command: median wall time and median CPU time (user +
 * system: what contention on a shared box does not inflate), and the ratio to the bare start.
 * With BENCH_BASELINE=/path/to/an/older/checkout (its own node_modules, or a link to these), each
 * command of that checkout runs alternated too, and so does the server's start: `bun src/main.ts`
 * from spawn to its "listening" line, wall and CPU (user + system, read from /proc at that line),
 * the same modules the CLI's composing commands (rebuild, backup, import) load.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { summarize } from './support/stats.ts'

const ROUNDS = Number(process.argv[2] ?? 15)
const ROOT = join(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'folio-cli-bench-'))
const env = { ...process.env, DATA_DIR: join(dir, 'data'), CACHE_DIR: join(dir, 'cache'), SITE_URL: 'https://blog.example.org' }

async function timed(args: string[]): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now()
  const proc = Bun.spawn([process.execPath, ...args], { cwd: ROOT, env, stdout: 'ignore', stderr: 'pipe' })
  const code = await proc.exited
  const wallMs = performance.now() - started
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${await new Response(proc.stderr).text()}`)
  const usage = proc.resourceUsage()!
  return { wallMs, cpuMs: Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 }
}

const CASES: [string, string[]][] = [
  ['bare bun -e 0', ['-e', '0']],
  ['--help', ['src/cli.ts', '--help']],
  ['token list', ['src/cli.ts', 'token', 'list']],
  ['user list', ['src/cli.ts', 'user', 'list']],
  ['comments list', ['src/cli.ts', 'comments', 'list']],
  ['webhook list', ['src/cli.ts', 'webhook', 'list']],
  ['pages list', ['src/cli.ts', 'pages', 'list']],
]
const base = process.env.BENCH_BASELINE
if (base)
  CASES.push(...CASES.slice(1).map(([name, [file, ...args]]): [string, string[]] => [`before: ${name}`, [join(base, file!), ...args]]))

/** `bun ROOT/src/main.ts` from spawn to its "listening" line: wall, and the process's CPU so far. */
async function serverStart(root: string): Promise<{ wallMs: number; cpuMs: number }> {
  const started = performance.now()
  const server = Bun.spawn([process.execPath, join(root, 'src/main.ts')], {
    cwd: root,
    env: { ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
    stdout: 'pipe',
    stderr: 'ignore',
  })
  const reader = server.stdout.getReader()
  for (let out = ''; !out.includes('"listening"');) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${root}/src/main.ts exited before listening`)
    out += new TextDecoder().decode(value)
  }
  const wallMs = performance.now() - started
  const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in clock ticks of 10 ms
  server.kill('SIGTERM')
  await server.exited
  return { wallMs, cpuMs }
}

try {
  await timed(['src/cli.ts', 'token', 'create', '--name', 'bench', '--scopes', 'blog:read']) // migrates the new database
  const STARTS: [string, string][] = base
    ? [
        ['server start', ROOT],
        ['before: server start', base],
      ]
    : []
  const samples = new Map([...CASES, ...STARTS].map(([name]) => [name, { wall: [] as number[], cpu: [] as number[] }]))
  const record = (name: string, { wallMs, cpuMs }: { wallMs: number; cpuMs: number }) => {
    samples.get(name)!.wall.push(wallMs)
    samples.get(name)!.cpu.push(cpuMs)
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, args] of CASES) record(name, await timed(args))
    for (const [name, root] of STARTS) record(name, await serverStart(root))
  }
  const bare = samples.get(CASES[0]![0])!
  const bareWall = summarize(bare.wall).p50
  const bareCpu = summarize(bare.cpu).p50
  console.log(`${ROUNDS} rounds, alternated; median wall ms (× bare) | median CPU ms (× bare)`)
  for (const [name, s] of samples) {
    const wall = summarize(s.wall).p50
    const cpu = summarize(s.cpu).p50
    console.log(
      `${name.padEnd(22)} ${wall.toFixed(0).padStart(5)} ms (${(wall / bareWall).toFixed(1)}×) | ${cpu.toFixed(0).padStart(5)} ms (${(cpu / bareCpu).toFixed(1)}×)`,
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
