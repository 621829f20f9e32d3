/**
 * Reads under a mixed load against the same reads on an idle server:
 * `bun bench/soak.bench.ts [posts] [seconds]` (default 1000 posts, 20 s per phase).
 *
 * 1,000 published posts (bench/support/seed.ts). Anonymous post-detail reads through the Bun
 * process at a fixed rate (200/s, open loop: each read is sent on schedule whether or not the
 * last one answered, so a stalled server shows as latency, not as fewer reads), first alone
 * ("idle"), then beside 2 publishes/s (a new post saved and published), 2 claps/s and 1 comment/s
 * ("mixed"). Both phases run with render threads (RENDER_WORKERS=1) and again, same data, with
 * slices rendered on the thread that answers reads (RENDER_WORKERS=0); each line prints the read
 * latencies and the mixed p99 as a ratio of the idle p99 measured next to it. Loopback only.
 */
import { publishablePost } from '../test/support/fixtures.ts'
import { startFolio, type Folio } from '../test/support/folio.ts'
import { seedPublished } from './support/seed.ts'
import { percentile } from './support/stats.ts'

const POSTS = Number(process.argv[2] ?? 1000) || 1000
const SECONDS = Number(process.argv[3] ?? 20) || 20
const READS_PER_S = 200
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

interface Figures {
  p50: number
  p95: number
  p99: number
  max: number
  errors: number
  count: number
}

async function phase(folio: Folio, slugs: string[], mixed: { token: string; categoryId: number; authorId: number } | null) {
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
  const work: Promise<void>[] = [atRate(READS_PER_S, SECONDS * 1000, read)]
  if (mixed) {
    const { token, categoryId, authorId } = mixed
    work.push(
      atRate(2, SECONDS * 1000, async () => {
        const t0 = performance.now()
        const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
          token,
          body: { ...publishablePost(categoryId, authorId), status: 0 },
        })
        const published = await folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token })
        if (published.body.code !== '0000') errors++
        publishMs.push(performance.now() - t0)
      }),
      atRate(2, SECONDS * 1000, (i) =>
        fetch(`${folio.url}/api/v1/blog/posts/${(i % 50) + 1}/reactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ reactionKey: 'clap', clientKey: `soak-${Date.now()}-${i}`, count: 1 }),
        }).then((r) => r.arrayBuffer()),
      ),
      atRate(1, SECONDS * 1000, (i) =>
        folio.call('POST', `/api/v1/blog/posts/${(i % 50) + 1}/comments`, {
          body: { authorName: `Soak reader ${i}`, content: `Comment ${i} from the soak benchmark.` },
          headers: { 'x-forwarded-for': `10.2.${Math.floor(i / 250)}.${(i % 250) + 1}` },
        }),
      ),
    )
  }
  await Promise.all(work)
  const sorted = latencies.sort((a, b) => a - b)
  const figures: Figures = {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    errors,
    count: sorted.length,
  }
  return { figures, publishes: publishMs.sort((a, b) => a - b) }
}

const folio = await startFolio({ SITE_URL: 'https://blog.example.org', RATE_LIMIT_PER_MINUTE: '1000000' })
try {
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId, template } = await seedPublished(folio, token, POSTS)
  const slugs = [template.slug as string, ...Array.from({ length: POSTS - 1 }, (_, i) => `${template.slug}-copy-${i + 1}`)]
  console.log(`${POSTS} posts, ${READS_PER_S} reads/s (open loop), ${SECONDS} s per phase; mixed: 2 publishes/s, 2 claps/s, 1 comment/s`)
  console.log('| RENDER_WORKERS | phase | reads | errors | p50 ms | p95 ms | p99 ms | max ms | p99 ÷ idle p99 | publish p50 / p99 ms |')
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const workers of ['1', '0']) {
    await folio.stop()
    folio.env.RENDER_WORKERS = workers
    await folio.restart()
    // Warm: every post's artifact read once is not needed (they are files); the first reads open the server's caches.
    await phase(folio, slugs.slice(0, 50), null)
    const idle = await phase(folio, slugs, null)
    const mixed = await phase(folio, slugs, { token, categoryId, authorId })
    for (const [name, { figures: f, publishes }] of [
      ['idle', idle],
      ['mixed', mixed],
    ] as const)
      console.log(
        `| ${workers} | ${name} | ${f.count} | ${f.errors} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} | ${fmt(f.max)} | ${fmt(f.p99 / idle.figures.p99, 2)}× | ${publishes.length ? `${fmt(percentile(publishes, 50), 0)} / ${fmt(percentile(publishes, 99), 0)}` : '–'} |`,
      )
  }
} finally {
  await folio.dispose()
}
