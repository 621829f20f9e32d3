/**
 * A publish during a site-wide re-render (issue 29 item 5), measured:
 * `BENCH_BASELINE=/path/to/an/older/checkout bun bench/lanes.bench.ts [size]` (default 1000).
 *
 * For each code (this checkout and, with BENCH_BASELINE, the other one, alternated ROUNDS times in
 * one run): a site of `size` published posts (one through the API, cloned in SQLite, rendered by
 * `cli rebuild`); SOLO lone publishes on the idle server (publish-until-served: the answer comes
 * once the post's artifacts are on disk); then a category rename, which re-renders every site page,
 * and SOLO lone publishes sent while that runs; the rename's own answer time. Printed: each code's
 * idle and during p50/max, and during/idle as a ratio. The baseline runs with its own
 * `test/support/folio.ts`, so each code starts its own server from its own folder.
 */
import { resolve } from 'node:path'
import { publishablePost, publishNewPost } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { seedPublished } from './support/seed.ts'
import { summarize } from './support/stats.ts'

const size = Number(process.argv[2] ?? 1000)
const SOLO = 10
const ROUNDS = 2
type Start = typeof startFolio

async function measure(start: Start): Promise<{ idle: number[]; during: number[]; renameMs: number; pendingAfter: number | null }> {
  const folio = await start({ SITE_URL: 'https://blog.example.org', WEBHOOK_WORKER: 'off' })
  try {
    const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
    const { categoryId, authorId } = await seedPublished(folio, token, size)
    if ((await folio.cli('rebuild')).code !== 0) throw new Error('rebuild failed')
    const timed = async () => {
      const t = performance.now()
      await publishNewPost(folio, token, publishablePost(categoryId, authorId))
      return performance.now() - t
    }
    const idle: number[] = []
    for (let i = 0; i < SOLO; i++) idle.push(await timed())
    const t = performance.now()
    const rename = folio.call('POST', '/api/v1/blog/categories/save', {
      token,
      body: { id: categoryId, nameEn: 'Renamed guides', nameZh: '指南' },
    })
    await Bun.sleep(50)
    const during: number[] = []
    for (let i = 0; i < SOLO; i++) during.push(await timed())
    const health = (await folio.call('GET', '/healthz')).body?.data?.render
    await rename
    return { idle, during, renameMs: performance.now() - t, pendingAfter: health?.reRender?.pending ?? null }
  } finally {
    await folio.dispose()
  }
}

const codes: { name: string; start: Start }[] = [{ name: 'this checkout', start: startFolio }]
if (process.env.BENCH_BASELINE) {
  const base = resolve(process.env.BENCH_BASELINE)
  const { startFolio: startBase } = (await import(`${base}/test/support/folio.ts`)) as { startFolio: Start }
  codes.unshift({ name: `baseline (${base})`, start: startBase })
}

const results = new Map<string, { idle: number[]; during: number[]; renameMs: number[]; pendingAfter: (number | null)[] }>()
for (let round = 0; round < ROUNDS; round++)
  for (const code of codes) {
    console.error(`round ${round + 1}: ${code.name}, ${size} posts`)
    const r = await measure(code.start)
    const into = results.get(code.name) ?? { idle: [], during: [], renameMs: [], pendingAfter: [] }
    into.idle.push(...r.idle)
    into.during.push(...r.during)
    into.renameMs.push(r.renameMs)
    into.pendingAfter.push(r.pendingAfter)
    results.set(code.name, into)
  }

console.log(`\n## A publish during a site-wide re-render (category rename), ${size} posts, ${ROUNDS} rounds alternated\n`)
console.log(
  '| code | publish idle p50 / max | publish during the re-render p50 / max | during / idle (p50) | rename answered in | re-render left when the publishes were done |',
)
console.log('|---|---|---|---|---|---|')
for (const [name, r] of results) {
  const idle = summarize(r.idle)
  const during = summarize(r.during)
  console.log(
    `| ${name} | ${idle.p50.toFixed(0)} / ${Math.max(...r.idle).toFixed(0)} ms | ${during.p50.toFixed(0)} / ${Math.max(...r.during).toFixed(0)} ms | ${(during.p50 / idle.p50).toFixed(2)}× | ${r.renameMs.map((ms) => ms.toFixed(0)).join(', ')} ms | ${r.pendingAfter.map((n) => n ?? 'n/a').join(', ')} |`,
  )
}
