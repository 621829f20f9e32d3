/**
 * Memory at 10,000 posts inside a 256 MB box (issue 29 item 1):
 * `bun bench/memory.bench.ts [posts] [seconds]` (default 10000 posts, 60 s per load phase; root,
 * for the cgroup). `BUN_OPTIONS=--smol` runs every Bun process in Bun's smol mode;
 * MEMORY_BUDGET_MB, RENDER_WORKERS and SEO_WORKERS are passed to the server as they are.
 *
 * Set up outside the limit: a site of `posts` published posts (one through the API, cloned in
 * SQLite) rendered by `cli rebuild`. Then Folio and Caddy start again inside a new memory cgroup
 * limited to 256 MB, no swap (v2, else v1; removed at the end; Caddy through a `caddy` on PATH
 * that joins the group first) and go through the phases: idle; reads via
 * the API (post pages across every post, and list pages, 16 clients); the same reads via Caddy;
 * 8 clients publishing new posts; `cli rebuild --force` (which hands the rebuild to the server:
 * the server's figures are the rebuild's) and `cli backup` (each started inside the group);
 * `PHASES=idle,rebuild,backup` runs only those. Printed per phase: Folio's peak RSS (VmHWM, reset per phase) and peak PSS (sampled every
 * 250 ms), Caddy's peak RSS, the CLI process's peak RSS, the group's peak (page cache included),
 * errors and OOM kills. `PREPARED=<dir>` keeps the seeded site there on the first run and starts
 * later runs from a copy of it (bench/support/prepared.ts). No cgroup (not root, no memory controller): the reason, and the same
 * figures without the limit.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startCaddy } from '../test/support/caddy.ts'
import { publishablePost, publishNewPost } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { createMemoryGroup, inGroup, memoryOf, resetPeakRss, type MemoryGroup } from './support/cgroup.ts'
import { formatLoad, runLoad } from './support/load.ts'
import { preparedSite, seedSite } from './support/prepared.ts'

const posts = Number(process.argv[2] ?? 10_000)
const seconds = Number(process.argv[3] ?? 60)
/** The phases to run (`PHASES=idle,rebuild,backup`): idle, api, caddy, publish, rebuild, backup; all by default. */
const PHASES = new Set((process.env.PHASES ?? 'idle,api,caddy,publish,rebuild,backup').split(','))
const LIMIT_BYTES = 256 * 1024 * 1024
const ROOT = resolve(import.meta.dir, '..')
const MB = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 1024 / 1024).toFixed(0)} MB`)

const scratch = mkdtempSync(join(tmpdir(), 'folio-memory-bench-'))
const site = await preparedSite(process.env.PREPARED, posts, scratch)
const folio = await startFolio({
  SITE_URL: 'https://blog.example.org',
  DATA_DIR: site.dataDir,
  CACHE_DIR: site.cacheDir,
  // The server's memory settings, passed on as they are, so one box can compare them.
  ...Object.fromEntries(
    ['MEMORY_BUDGET_MB', 'RENDER_WORKERS', 'SEO_WORKERS'].flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
  ),
})
let group: MemoryGroup | null = null
let server: ReturnType<typeof Bun.spawn> | null = null
let caddy: Awaited<ReturnType<typeof startCaddy>> | null = null
const rows: string[] = []
try {
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const seeded = site.seeded ?? (await seedSite(folio, token, posts, site.keep))
  const slugs = [seeded.slug, ...Array.from({ length: posts - 1 }, (_, i) => `${seeded.slug}-copy-${i + 1}`)]
  const made = createMemoryGroup(`folio-bench-${process.pid}`, LIMIT_BYTES)
  if ('reason' in made) console.log(`no cgroup: ${made.reason}; the figures below are without a limit`)
  else {
    group = made
    console.log(`Folio and Caddy in ${group.where}, limited to ${MB(LIMIT_BYTES)} (no swap)`)
  }
  // The server again, on the same port and data, started inside the group; ready once /healthz answers 200.
  await folio.stop()
  server = Bun.spawn(inGroup(group, [process.execPath, join(ROOT, 'src/main.ts')]), {
    cwd: ROOT,
    env: folio.env,
    stdout: 'ignore',
    stderr: 'inherit',
  })
  while ((await fetch(`${folio.url}/healthz`).catch(() => null))?.status !== 200) {
    if (server.exitCode !== null || server.signalCode) throw new Error(`Folio exited at start (${server.signalCode ?? server.exitCode})`)
    await Bun.sleep(200)
  }
  const serverPid = server.pid
  const shim = join(scratch, 'bin')
  mkdirSync(shim)
  writeFileSync(join(shim, 'caddy'), `#!/bin/sh\n${group ? `echo $$ > ${group.procs}\n` : ''}exec ${Bun.which('caddy')} "$@"\n`)
  chmodSync(join(shim, 'caddy'), 0o755)
  process.env.PATH = `${shim}:${process.env.PATH}`
  caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
  const caddyPid = caddy.pid
  const caddyUrl = caddy.url
  console.log(`${posts} posts, ${seconds} s per load phase${process.env.BUN_OPTIONS ? `, BUN_OPTIONS=${process.env.BUN_OPTIONS}` : ''}`)

  /** A CLI command run inside the group (a shell joins it, then becomes the command); its pid is sampled. */
  const cliInGroup = async (args: string[], sample: (pid: number) => void) => {
    const proc = Bun.spawn(inGroup(group, [process.execPath, join(ROOT, 'src/cli.ts'), ...args]), {
      cwd: ROOT,
      env: folio.env,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const timer = setInterval(() => sample(proc.pid), 250)
    const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
    clearInterval(timer)
    if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code} (${proc.signalCode ?? 'no signal'}): ${err}`)
    return out.trim().split('\n').at(-1)
  }

  async function phase(key: string, name: string, work: (sample: (pid: number) => void) => Promise<string | undefined>) {
    if (!PHASES.has(key)) return
    for (const pid of [serverPid, caddyPid]) resetPeakRss(pid)
    group?.resetPeak()
    let pss = 0
    let cliPeak = 0
    const sampleServer = () => (pss = Math.max(pss, memoryOf(serverPid)?.pssMb ?? 0))
    const timer = setInterval(sampleServer, 250)
    const sampleCli = (pid: number) => (cliPeak = Math.max(cliPeak, memoryOf(pid)?.hwmMb ?? 0))
    const ooms = group?.oomKills() ?? 0
    const detail = await work(sampleCli)
    clearInterval(timer)
    sampleServer()
    const f = memoryOf(serverPid)
    if (!f) throw new Error(`Folio exited during "${name}" (${server!.signalCode ?? server!.exitCode})`)
    const c = memoryOf(caddyPid)
    const oom = (group?.oomKills() ?? 0) - ooms
    rows.push(
      `| ${name} | ${f.hwmMb.toFixed(0)} | ${pss.toFixed(0)} | ${c?.hwmMb.toFixed(0) ?? '-'} | ${cliPeak ? cliPeak.toFixed(0) : '-'} | ${MB(group?.peak() ?? null)} | ${oom} |`,
    )
    console.log(`${name}: ${detail ?? ''}`)
  }

  const reads = (base: string) => (i: number) =>
    i % 10 === 0
      ? `${base}/api/v1/blog/posts?language=en&current=${1 + (i % 50)}`
      : `${base}/api/v1/blog/posts/${slugs[(i * 7919) % slugs.length]}`
  const load = async (base: string) => {
    const result = await runLoad({ url: reads(base), concurrency: 16, durationMs: seconds * 1000 })
    if (result.errors) throw new Error(`reads via ${base}: ${result.errors} errors`)
    return formatLoad(result)
  }

  await phase('idle', 'idle', async () => void (await Bun.sleep(Math.min(10, seconds) * 1000)))
  await phase('api', 'reads via the API', () => load(folio.url))
  await phase('caddy', 'reads via Caddy', () => load(caddyUrl))
  await phase('publish', '8 publishing clients', async () => {
    const deadline = performance.now() + seconds * 1000
    let published = 0
    const client = async () => {
      while (performance.now() < deadline) {
        await publishNewPost(folio, token, publishablePost(seeded.categoryId, seeded.authorId))
        published++
      }
    }
    await Promise.all(Array.from({ length: 8 }, client))
    return `${published} posts published, ${(published / seconds).toFixed(1)} posts/s`
  })
  await folio.settled()
  await phase('rebuild', 'cli rebuild --force (handed to the server)', (sample) => cliInGroup(['rebuild', '--force'], sample))
  await phase('backup', 'cli backup', (sample) => cliInGroup(['backup', join(scratch, 'backup.tar.gz')], sample))
} catch (error) {
  console.log(`stopped: ${(error as Error).message}${group ? ` (OOM kills in the group: ${group.oomKills()})` : ''}`)
  process.exitCode = 1
} finally {
  // The phases measured, those before a stop too.
  console.log(
    '\n| phase | Folio peak RSS (MB) | Folio peak PSS (MB) | Caddy peak RSS (MB) | CLI peak RSS (MB) | group peak (page cache incl.) | OOM kills |',
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const row of rows) console.log(row)
  await caddy?.stop()
  server?.kill('SIGTERM')
  await server?.exited
  await folio.dispose()
  rmSync(scratch, { recursive: true, force: true })
  group?.remove()
}
