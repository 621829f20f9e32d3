/**
 * The publishing engine, measured (issue 11): `bun bench/engine.bench.ts [--base <git ref>] [sizes…]`
 * (default 1000). With `--base main` (or BENCH_BASELINE=<another checkout>), the base code and
 * this checkout run alternately BENCH_ROUNDS times (default 2) in the same window, and the median
 * of each figure is printed with its ratio against the base (support/baseline.ts).
 *
 * For each site size: one post is published through the API and cloned in SQLite to `size`
 * posts; then, each figure next to a baseline taken in the same run where one exists,
 *   - full rebuild and unchanged rebuild (`cli rebuild`; the unchanged one twice: right after the
 *     full one, and again once the folders' listings are recorded), ms per post, artifacts
 *     rendered and skipped, files written; the full rebuild next to its files alone (the same
 *     files, folders and links made on the same disk with nothing rendered: filesAlone) and its
 *     compression alone (compressionAlone);
 *   - 8 concurrent clients publishing drafts, twice (cold, right after a start, then warm):
 *     posts/s, publish-until-served p50/p95 (a publish answers once its artifacts are on disk),
 *     webhook delivery lag (publish sent -> receipt at a local receiver) p50/p95, duplicate
 *     deliveries, "database is locked" in the server log, the server's CPU time per publish (its
 *     main thread, and all its threads);
 *     then one client alone, publish-until-served p50/p95;
 *   - reads with wrk (pinned to the last core with taskset): the API serving a post detail vs a
 *     bare Bun.serve answering the same bytes; Caddy with the project's Caddyfile vs a plain
 *     Caddy file_server on the same file.
 * Every phase is bounded (fixed counts, fixed wrk durations). Loopback only. With
 * BENCH_CACHE_ROOT=/dev/shm the artifacts are written to tmpfs instead of the temp folder's disk;
 * SITEMAP_SHARD_SIZE, when set, is the server's (default: the spec's 50,000).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { startCaddy } from '../test/support/caddy.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { alternate, baselineOf, type Code, type Figures } from './support/baseline.ts'
import { addReceiver, startReceiver } from '../test/webhooks/receiver.ts'
import { cpuMs } from './support/cpu.ts'
import { compressionAlone, filesAlone } from './support/files.ts'
import { seedPublishedCopies } from './support/seed.ts'
import { summarize } from './support/stats.ts'
import { firstLine, plainCaddyfile, wrk } from './support/wrk.ts'

const base = baselineOf(process.argv.slice(2))
const sizes = (base?.rest ?? process.argv.slice(2)).map(Number).filter(Boolean)
const BENCH_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
type Start = typeof startFolio
const CLIENTS = 8
const PER_CLIENT = 25
/**
 * The 8 clients publish twice: right after the server starts, while its code is still being
 * compiled (JavaScriptCore's JIT threads took ~9 ms of CPU per publish in the first 200), and
 * again once it is warm, which is what a migration or a fleet publishing for minutes sees.
 */
const ROUNDS = ['cold (the first 200 after a start)', 'warm (the next 200)']
/** Publishes by a lone client, for the latency of a pass without queueing. */
const SOLO = 20

/** A progress line on stderr, so a long run (10,000 posts) shows where it is. */
const phase = (what: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${what} (load ${loadAverage()})`)
const loadAverage = () => (existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ')[0] : '?')

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

async function rebuild(folio: Awaited<ReturnType<Start>>) {
  const out = await folio.cli('rebuild')
  const m = /(\d+) rendered, (\d+) written, (\d+) removed, \d+ unchanged, (\d+) skipped in (\d+) ms/.exec(out.stdout)
  if (!m) throw new Error(`rebuild failed: ${out.stdout}${out.stderr}`)
  return { rendered: Number(m[1]), written: Number(m[2]), skipped: Number(m[4]), ms: Number(m[5]) }
}

/**
 * 8 clients publish CLIENTS x PER_CLIENT new drafts saved beforehand, each client one after another:
 * posts/s, publish-until-served latencies, and the webhook lag of this round's posts (publish
 * sent -> first receipt), with duplicates counted.
 */
async function publishingRound(
  folio: Awaited<ReturnType<Start>>,
  token: string,
  receiver: ReturnType<typeof startReceiver>,
  newPost: () => Record<string, unknown>,
  round: string,
) {
  const drafts: number[] = []
  for (let c = 0; c < CLIENTS; c++)
    await Promise.all(
      Array.from({ length: PER_CLIENT }, async () => {
        const saved = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...newPost(), status: 0 } })
        drafts.push(saved.body.data.id)
      }),
    )
  phase(`${CLIENTS} clients publishing ${drafts.length} drafts, ${round}`)
  const sentAt = new Map<number, number>()
  const latencies: number[] = []
  const pid = folio.process().pid
  const cpuBefore = { main: cpuMs(pid, pid), all: cpuMs(pid) }
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (const id of drafts.slice(c * PER_CLIENT, (c + 1) * PER_CLIENT)) {
        sentAt.set(id, Date.now())
        const t0 = performance.now()
        const res = await folio.call('POST', `/api/v1/blog/posts/${id}/publish`, { token })
        if (res.body?.code !== '0000') throw new Error(`publish failed: ${res.text}`)
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const perPublish = (before: number | null, after: number | null) =>
    before === null || after === null ? null : (after - before) / drafts.length
  const cpu = { main: perPublish(cpuBefore.main, cpuMs(pid, pid)), all: perPublish(cpuBefore.all, cpuMs(pid)) }
  const ours = () => receiver.on('/hook').filter((r) => sentAt.has(JSON.parse(r.body).post.id))
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline && new Set(ours().map((r) => JSON.parse(r.body).post.id)).size < drafts.length) await Bun.sleep(50)
  const receipts = ours()
  const firstReceipt = new Map<number, number>()
  for (const r of receipts) {
    const id = JSON.parse(r.body).post.id as number
    if (!firstReceipt.has(id)) firstReceipt.set(id, r.at)
  }
  return {
    rate: drafts.length / elapsed,
    cpu,
    publish: summarize(latencies),
    lag: summarize([...firstReceipt].map(([id, at]) => at - sentAt.get(id)!)),
    published: drafts.length,
    delivered: firstReceipt.size,
    duplicates: receipts.length - firstReceipt.size,
  }
}

async function measure(size: number, start: Start): Promise<Figures> {
  const figures: Figures = {}
  const receiver = startReceiver()
  // BENCH_CACHE_ROOT=/dev/shm puts CACHE_DIR on tmpfs, to tell the engine's own cost from the disk's.
  const cacheRoot = process.env.BENCH_CACHE_ROOT
  const cacheDir: Record<string, string> = cacheRoot ? { CACHE_DIR: mkdtempSync(join(cacheRoot, 'folio-bench-cache-')) } : {}
  // SITEMAP_SHARD_SIZE=1000 (what docs/publishing.md advises a large site that publishes often) is passed on to the server.
  const shards: Record<string, string> = process.env.SITEMAP_SHARD_SIZE ? { SITEMAP_SHARD_SIZE: process.env.SITEMAP_SHARD_SIZE } : {}
  const folio = await start({ SITE_URL: 'https://blog.example.org', WEBHOOK_POLL_MS: '50', LOG_LEVEL: 'info', ...cacheDir, ...shards })
  try {
    const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    const template = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
    await folio.stop()
    phase(`seeding ${size} posts`)
    seedPublishedCopies(folio.dataDir, template.id, size - 1)

    phase('full rebuild')
    const full = await rebuild(folio)
    phase("the full rebuild's files alone, then its compression alone")
    const floor = filesAlone(folio.cacheDir, dirname(folio.cacheDir))
    const squeeze = compressionAlone(folio.cacheDir)
    phase('unchanged rebuild')
    const unchanged = await rebuild(folio)
    // The first rebuild after a full one lists every folder the full one wrote; it records their
    // listings (listing.ts), so the next, like any later rebuild, only stats the folders.
    phase('unchanged rebuild, again')
    const again = await rebuild(folio)
    console.log(`full rebuild:      ${fmt(full.ms / size, 3)} ms/post (${full.rendered} artifacts, ${full.written} written)`)
    console.log(
      `  its files alone: ${fmt(floor.ms / size, 3)} ms/post (${floor.files} files with their folders and links, each written to a temp name and renamed; ` +
        `nothing rendered or compressed): the rebuild takes ${fmt(full.ms / floor.ms, 2)}x that`,
    )
    console.log(
      `  its compression alone: ${fmt(squeeze.ms / size, 3)} ms/post of CPU (${squeeze.artifacts} artifacts through brotli 5 and gzip 6 on one thread, nothing written)`,
    )
    Object.assign(figures, {
      'full rebuild, ms/post': full.ms / size,
      'unchanged rebuild, ms/post': unchanged.ms / size,
      'unchanged rebuild again, ms/post': again.ms / size,
    })
    for (const [name, run] of [
      ['unchanged rebuild', unchanged],
      ['  and again      ', again],
    ] as const)
      console.log(`${name}: ${fmt(run.ms / size, 3)} ms/post (${run.rendered} rendered, ${run.skipped} skipped, ${run.written} written)`)

    await folio.restart()
    await addReceiver(folio, token, { url: receiver.url('/hook'), events: ['blog.post.published'] })
    for (const round of ROUNDS) {
      const r = await publishingRound(folio, token, receiver, () => publishablePost(categoryId, authorId), round)
      const when = round.split(' ')[0]
      Object.assign(figures, {
        [`8 clients ${when}: posts/s`]: r.rate,
        [`8 clients ${when}: publish p50 ms`]: r.publish.p50,
        [`8 clients ${when}: publish p95 ms`]: r.publish.p95,
        [`8 clients ${when}: webhook lag p50 ms`]: r.lag.p50,
        ...(r.cpu.main === null ? {} : { [`8 clients ${when}: server main-thread CPU ms/publish`]: r.cpu.main }),
      })
      console.log(
        `publishing, ${CLIENTS} clients, ${round}: ${fmt(r.rate)} posts/s; publish-until-served p50 ${fmt(r.publish.p50)} ms, p95 ${fmt(r.publish.p95)} ms`,
      )
      if (r.cpu.main !== null && r.cpu.all !== null)
        console.log(
          `  server CPU per publish: main thread ${fmt(r.cpu.main)} ms, all its threads ${fmt(r.cpu.all)} ms (so at most ${fmt(1000 / r.cpu.main, 0)} posts/s on one core)`,
        )
      console.log(
        `  webhook lag: p50 ${fmt(r.lag.p50)} ms, p95 ${fmt(r.lag.p95)} ms; ${r.delivered}/${r.published} delivered, ${r.duplicates} duplicates, ` +
          `"database is locked" ${folio.output().includes('database is locked') ? 'SEEN' : 'never'} in the log`,
      )
    }

    // The same publish with no other client: the latency of one pass, without the queueing 8
    // clients add (with 8 always in flight, each waits on average 8 / throughput).
    phase(`1 client publishing ${SOLO} drafts one after another`)
    const solo: number[] = []
    for (let i = 0; i < SOLO; i++) {
      const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
        token,
        body: { ...publishablePost(categoryId, authorId), status: 0 },
      })
      const t0 = performance.now()
      const res = await folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token })
      if (res.body?.code !== '0000') throw new Error(`publish failed: ${res.text}`)
      solo.push(performance.now() - t0)
    }
    const alone = summarize(solo)
    Object.assign(figures, { '1 client: publish p50 ms': alone.p50, '1 client: publish p95 ms': alone.p95 })
    console.log(`publishing, 1 client: publish-until-served p50 ${fmt(alone.p50)} ms, p95 ${fmt(alone.p95)} ms`)

    if (!Bun.which('wrk')) {
      console.log('reads: wrk is not installed (apt-get install wrk), skipped')
      return figures
    }
    phase('reads with wrk')
    // Reads: the same post detail through each server.
    const slug = template.slug as string
    const file = join(folio.cacheDir, `api/v1/blog/posts/${slug}/@`)
    const bare = Bun.spawn([process.execPath, resolve(import.meta.dir, 'support/bare-server.ts'), file], { stdout: 'pipe' })
    const bareUrl = await firstLine(bare.stdout)
    const plainDir = mkdtempSync(join(tmpdir(), 'folio-plain-caddy-'))
    const plainFile = join(plainDir, 'Caddyfile')
    writeFileSync(plainFile, plainCaddyfile)
    const caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
    const plain = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir, caddyfile: plainFile })
    try {
      const api = await wrk(`${folio.url}/api/v1/blog/posts/${slug}`)
      const baseline = await wrk(bareUrl)
      const viaCaddy = await wrk(`${caddy.url}/api/v1/blog/posts/${slug}`)
      const viaPlain = await wrk(`${plain.url}/api/v1/blog/posts/${slug}/@`)
      Object.assign(figures, { 'API read, req/s': api, 'Caddy read, req/s': viaCaddy })
      console.log(`API read: ${fmt(api, 0)} req/s vs bare Bun.serve ${fmt(baseline, 0)} req/s = ${fmt(api / baseline, 2)}x`)
      console.log(
        `Caddy (Caddyfile): ${fmt(viaCaddy, 0)} req/s vs plain file_server ${fmt(viaPlain, 0)} req/s = ${fmt(viaCaddy / viaPlain, 2)}x`,
      )
    } finally {
      bare.kill()
      await caddy.stop()
      await plain.stop()
    }
  } finally {
    receiver.stop()
    await folio.dispose()
    if (cacheRoot) rmSync(folio.cacheDir, { recursive: true, force: true })
  }
  return figures
}

const codes: Code<Start>[] = [{ name: 'this checkout', start: startFolio }]
if (base) {
  const { startFolio: startBase } = (await import(`${base.dir}/test/support/folio.ts`)) as { startFolio: Start }
  codes.unshift({ name: base.name, start: startBase })
}
try {
  for (const size of sizes.length ? sizes : [1000]) {
    console.log(`\n## ${size.toLocaleString('en-US')} posts`)
    if (codes.length === 1) await measure(size, startFolio)
    else await alternate(codes, BENCH_ROUNDS, (code) => measure(size, code.start))
  }
} finally {
  base?.cleanup()
}
