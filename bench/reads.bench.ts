/**
 * The read comparisons of `engine.bench.ts` alone, in seconds instead of minutes:
 * `bun bench/reads.bench.ts [rounds] [caddyfile…]` (default 3 rounds).
 *
 * One post is published through the API; then, each round back to back with wrk (pinned to the
 * last core with taskset, 16 connections, like engine.bench.ts): the API serving the post detail
 * vs a bare Bun.serve answering the same bytes, and Caddy with the project's Caddyfile vs a plain
 * Caddy file_server on the same file. Other Caddyfiles named on the command line are measured in
 * the same rounds against the same plain file_server (to try a change before making it). Each
 * ratio is printed as the median of the rounds, with every round's value; next to each server's
 * req/s, the CPU time its process spent per request (from /proc), which a busy shared machine
 * disturbs less than req/s. Loopback only; every phase is bounded.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startCaddy, type Caddy } from '../test/support/caddy.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { firstLine, plainCaddyfile, wrkRun } from './support/wrk.ts'

const rounds = Number(process.argv[2] ?? 3) || 3
const candidates = process.argv.slice(3).map((file) => resolve(file))
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 })
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

const folio = await startFolio({ SITE_URL: 'https://blog.example.org', LOG_LEVEL: 'info' })
const dir = mkdtempSync(join(tmpdir(), 'folio-reads-'))
const caddies: Caddy[] = []
const bare = { kill() {} } as { kill(): void }
try {
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  const slug = post.slug as string
  const file = join(folio.cacheDir, `api/v1/blog/posts/${slug}/@`)
  const child = Bun.spawn([process.execPath, resolve(import.meta.dir, 'support/bare-server.ts'), file], { stdout: 'pipe' })
  bare.kill = () => child.kill()
  const bareUrl = await firstLine(child.stdout)
  const plainFile = join(dir, 'Caddyfile')
  writeFileSync(plainFile, plainCaddyfile)
  const start = (caddyfile?: string) =>
    startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir, caddyfile }).then((c) => (caddies.push(c), c))
  const caddy = await start()
  const plain = await start(plainFile)
  const others = await Promise.all(candidates.map((c) => start(c)))
  // Each figure: req/s and, from /proc, the serving process's CPU µs per request.
  type Row = { rps: number[]; cpu: number[] }
  const rows = new Map<string, Row>()
  const measure = async (name: string, url: string, pid: number) => {
    const { rps, cpuUs } = await wrkRun(url, pid)
    const row = rows.get(name) ?? { rps: [], cpu: [] }
    row.rps.push(rps)
    if (cpuUs !== null) row.cpu.push(cpuUs)
    rows.set(name, row)
    return rps
  }
  const api = `/api/v1/blog/posts/${slug}`
  const ratios: Record<string, number[]> = {}
  const ratio = (name: string, value: number) => (ratios[name] ??= []).push(value)
  for (let round = 1; round <= rounds; round++) {
    const viaApi = await measure('API', `${folio.url}${api}`, folio.process().pid)
    const baseline = await measure('bare Bun.serve', bareUrl, child.pid)
    const viaCaddy = await measure('Caddyfile', `${caddy.url}${api}`, caddy.pid)
    const viaPlain = await measure('plain file_server', `${plain.url}${api}/@`, plain.pid)
    ratio('API read / bare Bun.serve', viaApi / baseline)
    ratio('Caddyfile / plain file_server', viaCaddy / viaPlain)
    for (const [i, other] of others.entries())
      ratio(`${candidates[i]} / plain file_server`, (await measure(candidates[i]!, `${other.url}${api}`, other.pid)) / viaPlain)
    console.error(`round ${round}/${rounds} done`)
  }
  for (const [name, row] of rows)
    console.log(
      `${name.padEnd(24)} ${fmt(median(row.rps))} req/s (${row.rps.map(fmt).join(', ')})${row.cpu.length ? `; ${median(row.cpu).toFixed(1)} µs CPU/request (${row.cpu.map((c) => c.toFixed(1)).join(', ')})` : ''}`,
    )
  for (const [name, values] of Object.entries(ratios))
    console.log(`${name}: ${median(values).toFixed(2)}x (median of ${rounds}: ${values.map((v) => v.toFixed(2)).join(', ')})`)
} finally {
  bare.kill()
  for (const c of caddies) await c.stop()
  await folio.dispose()
  rmSync(dir, { recursive: true, force: true })
}
