/**
 * Reads under a mixed load against the same reads on an idle server:
 * `bun bench/soak.bench.ts [posts] [seconds]` (default 1000 posts, 20 s per phase).
 *
 * 1,000 published posts (bench/support/seed.ts). Anonymous post-detail reads through the Bun
 * process at a fixed rate (200/s, open loop: each read is sent on schedule whether or not the
 * last one answered, so a stalled server shows as latency, not as fewer reads), first alone
 * ("idle"), then beside 2 publishes/s (a new post saved and published), 2 claps/s and 1 comment/s
 * ("mixed"). Each line prints the read latencies, the mixed p99 as a ratio of the idle p99
 * measured next to it, the server's CPU time (user + system, all its threads) and its peak RSS in
 * the phase.
 *
 * SOAK_WORKERS (default `1,0`): the RENDER_WORKERS values to run, the server restarted between
 * them. With BENCH_BASELINE=/path/to/an/older/checkout (its own node_modules, or a link to these)
 * or `--base <git ref>`, that code runs too, each code on its own seeded data, alternated
 * ROUNDS times (default 1): old, new, old, new. SOAK_BUN_OPTIONS: Bun options for this
 * checkout's server alone, e.g. `--cpu-prof-md --cpu-prof-dir /tmp/soak` (a profile per thread,
 * written at its stop). SOAK_STALLS=1: each server is started with bench/support/stall-probe.ts,
 * and each line adds the serving thread's event-loop stalls over 10 ms in the phase: how many, their
 * total, and of that how long the thread was on a core (the server's own work) and how long it was
 * runnable but waiting for one (the machine's other work); the probe costs each code alike.
 * Loopback only.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publishablePost } from '../test/support/fixtures.ts'
import type { Folio } from '../test/support/folio.ts'
import { baselineOf } from './support/baseline.ts'
import { memoryOf, resetPeakRss } from './support/cgroup.ts'
import { cpuMs } from './support/cpu.ts'
import { seedPublished } from './support/seed.ts'
import { percentile } from './support/stats.ts'

const base = baselineOf(process.argv.slice(2))
const args = base?.rest ?? process.argv.slice(2)
const POSTS = Number(args[0] ?? 1000) || 1000
const SECONDS = Number(args[1] ?? 20) || 20
const ROUNDS = Number(process.env.ROUNDS ?? 1) || 1
const WORKERS = (process.env.SOAK_WORKERS ?? '1,0').split(',')
const READS_PER_S = 200
const STALLS = process.env.SOAK_STALLS === '1'
const STALL_REPORT_MS = 10

/** The serving thread's stalls over STALL_REPORT_MS that ended between `from` and `to` (epoch ms), summed (stall-probe.ts). */
function stallsIn(file: string, from: number, to: number) {
  const sum = { count: 0, ms: 0, onCore: 0, waiting: 0 }
  if (!existsSync(file)) return sum
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [end, late, onCore, waiting] = line.split(' ').map(Number)
    if (!(end! >= from && end! <= to && late! > STALL_REPORT_MS)) continue
    sum.count++
    sum.ms += late!
    sum.onCore += onCore!
    sum.waiting += waiting!
  }
  return sum
}
const fmt = (n: number, digits = 1) => n.toFixed(digits)

/** Calls `fire` `perSecond` times a second until `ms` has passed, never waiting for an answer. */
async function atRate(perSecond: number, ms: number, fire: (i: number) => Promise<unknown>): Promise<void> {
  const started = performance.now()
  const pending: Promise<unknown>[] = []
  for (let i = 0; ; i++) {
    const at = started + (i * 1000) / perSecond
    if (at - started >= ms) break
    const wait = at - performance.now()
    if (wait > 0) await Bun.sleep(wait)
    pending.push(fire(i).catch(() => {}))
  }
  await Promise.all(pending)
}

interface Mixed {
  token: string
  categoryId: number
  authorId: number
}

async function phase(folio: Folio, slugs: string[], seconds: number, mixed: Mixed | null, stallFile?: string) {
  const latencies: number[] = []
  let errors = 0
  const read = async (i: number) => {
    const slug = slugs[(i * 7919) % slugs.length]!
    const t0 = performance.now()
    const response = await fetch(`${folio.url}/api/v1/blog/posts/${slug}`)
    await response.arrayBuffer()
    latencies.push(performance.now() - t0)
    if (response.status !== 200) errors++
  }
  const publishMs: number[] = []
  const pid = folio.process().pid
  const cpuBefore = cpuMs(pid) ?? 0
  const startedAt = Date.now()
  resetPeakRss(pid)
  const work: Promise<void>[] = [atRate(READS_PER_S, seconds * 1000, read)]
  if (mixed) {
    const { token, categoryId, authorId } = mixed
    work.push(
      atRate(2, seconds * 1000, async () => {
        const t0 = performance.now()
        const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
          token,
          body: { ...publishablePost(categoryId, authorId), status: 0 },
        })
        const published = await folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token })
        if (published.body.code !== '0000') errors++
        publishMs.push(performance.now() - t0)
      }),
      atRate(2, seconds * 1000, (i) =>
        fetch(`${folio.url}/api/v1/blog/posts/${(i % 50) + 1}/reactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reactionKey: 'clap', clientKey: `soak-${Date.now()}-${i}`, count: 1 }),
        }).then((r) => r.arrayBuffer()),
      ),
      atRate(1, seconds * 1000, (i) =>
        folio.call('POST', `/api/v1/blog/posts/${(i % 50) + 1}/comments`, {
          body: { authorName: `Soak reader ${i}`, content: `Comment ${i} from the soak benchmark.` },
          headers: { 'x-forwarded-for': `10.2.${Math.floor(i / 250)}.${(i % 250) + 1}` },
        }),
      ),
    )
  }
  await Promise.all(work)
  const cpu = (cpuMs(pid) ?? 0) - cpuBefore
  const peakRssMb = memoryOf(pid)?.hwmMb ?? NaN
  const stalls = stallFile ? stallsIn(stallFile, startedAt, Date.now()) : null
  const sorted = latencies.sort((a, b) => a - b)
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    errors,
    count: sorted.length,
    cpu,
    peakRssMb,
    stalls,
    publishes: publishMs.sort((a, b) => a - b),
  }
}

type Start = (env?: Record<string, string>) => Promise<Folio>

/**
 * Resolves once the server has nothing left to do in the background: no render job in either lane
 * and the search catch-up done (the seeded posts have no search rows until a start makes them).
 */
async function quiet(folio: Folio): Promise<void> {
  for (;;) {
    const data = (await folio.call('GET', '/healthz')).body?.data
    const render = data?.render
    if (
      render &&
      render.pending === 0 &&
      render.reRender?.pending === 0 &&
      data.search?.state !== 'running' &&
      data.search?.state !== 'waiting'
    )
      return
    await Bun.sleep(500)
  }
}

/** One code's server on its own seeded data, stopped between its turns. */
async function prepare(start: Start, bunOptions: string | undefined) {
  const env: Record<string, string> = { SITE_URL: 'https://blog.example.org', RATE_LIMIT_PER_MINUTE: '1000000' }
  const options = [bunOptions ?? '']
  if (STALLS) {
    options.push(`--preload ${join(import.meta.dir, 'support/stall-probe.ts')}`)
    env.SOAK_STALL_FILE = join(mkdtempSync(join(tmpdir(), 'folio-soak-')), 'stalls')
  }
  if (options.join('').trim()) env.BUN_OPTIONS = options.join(' ').trim()
  const folio = await start(env)
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId, template } = await seedPublished(folio, token, POSTS, false)
  // The clones went straight into SQLite: a rebuild gives them their artifacts (else every read is a live answer).
  const rebuilt = await folio.cli('rebuild')
  if (rebuilt.code !== 0) throw new Error(`rebuild failed: ${rebuilt.stderr}`)
  await folio.restart()
  await quiet(folio)
  await folio.stop()
  const slugs = [template.slug as string, ...Array.from({ length: POSTS - 1 }, (_, i) => `${template.slug}-copy-${i + 1}`)]
  return { folio, slugs, mixed: { token, categoryId, authorId }, stallFile: env.SOAK_STALL_FILE }
}

const { startFolio } = await import('../test/support/folio.ts')
const codes: { name: string; start: Start; bunOptions?: string }[] = [
  { name: 'this checkout', start: startFolio, bunOptions: process.env.SOAK_BUN_OPTIONS },
]
if (base) {
  const { startFolio: startBase } = (await import(`${base.dir}/test/support/folio.ts`)) as { startFolio: Start }
  codes.unshift({ name: base.name, start: startBase })
}
const prepared = await Promise.all(codes.map((code) => prepare(code.start, code.bunOptions)))
try {
  console.log(
    `${POSTS} posts, ${READS_PER_S} reads/s (open loop), ${SECONDS} s per phase; mixed: 2 publishes/s, 2 claps/s, 1 comment/s; ${ROUNDS} round(s)`,
  )
  console.log(
    '| code | RENDER_WORKERS | phase | reads | errors | p50 ms | p95 ms | p99 ms | max ms | p99 ÷ idle p99 | server CPU s | peak RSS MB | publish p50 / p99 ms | stalls > 10 ms: n, total / on a core / waiting for one, ms |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (let round = 0; round < ROUNDS; round++)
    for (const workers of WORKERS)
      for (const [k, code] of codes.entries()) {
        const { folio, slugs, mixed, stallFile } = prepared[k]!
        folio.env.RENDER_WORKERS = workers
        await folio.restart()
        await quiet(folio)
        // The first reads open the server's caches and connections.
        await phase(folio, slugs.slice(0, 50), 2, null)
        const idle = await phase(folio, slugs, SECONDS, null, stallFile)
        const loaded = await phase(folio, slugs, SECONDS, mixed, stallFile)
        await folio.stop()
        for (const [name, f] of [
          ['idle', idle],
          ['mixed', loaded],
        ] as const)
          console.log(
            `| ${code.name} | ${workers} | ${name} | ${f.count} | ${f.errors} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} | ${fmt(f.max)} | ${fmt(f.p99 / idle.p99, 2)}× | ${fmt(f.cpu / 1000, 2)} | ${fmt(f.peakRssMb, 0)} | ${f.publishes.length ? `${fmt(percentile(f.publishes, 50), 0)} / ${fmt(percentile(f.publishes, 99), 0)}` : '–'} | ${f.stalls ? `${f.stalls.count}, ${fmt(f.stalls.ms, 0)} / ${fmt(f.stalls.onCore, 0)} / ${fmt(f.stalls.waiting, 0)}` : '–'} |`,
          )
      }
} finally {
  await Promise.all(prepared.map(({ folio }) => folio.dispose()))
  base?.cleanup()
}
