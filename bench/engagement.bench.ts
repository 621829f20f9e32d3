/**
 * Engagement throughput against the real server over loopback (`bun bench/engagement.bench.ts`):
 * claps/s sustained on one post with distinct clientKeys (every request a write that counts),
 * and engagement reads/s of a post with approved comments. Each phase runs a fixed number of
 * concurrent clients for a fixed time; the global rate limit is raised so it measures the work.
 */
import { startFolio, type Folio } from '../test/support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { runLoad } from './support/load.ts'

const PHASE_MS = 5_000
const CLIENTS = 16
const COMMENTS = 20

/** `CLIENTS` closed loops for `PHASE_MS`; a request whose answer's `code` is not 0000 is a failure. */
const phase = (url: string, init?: (n: number) => RequestInit) =>
  runLoad({
    url,
    ...(init && { init }),
    concurrency: CLIENTS,
    durationMs: PHASE_MS,
    ok: (_, body) => (JSON.parse(new TextDecoder().decode(body)) as { code: string }).code === '0000',
  })

async function seedPost(folio: Folio, token: string) {
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  return post.id as number
}

const folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000' })
try {
  const token = await folio.token('blog:write', 'blog:publish', 'blog:admin')
  const json = { 'content-type': 'application/json' }

  const clapPost = await seedPost(folio, token)
  const claps = await phase(`${folio.url}/api/v1/blog/posts/${clapPost}/reactions`, (n) => ({
    method: 'POST',
    headers: json,
    body: JSON.stringify({ reactionKey: 'clap', clientKey: `bench-${n}`, count: 1 }),
  }))
  const total = (await folio.call('GET', `/api/v1/blog/posts/${clapPost}/engagement`)).body.data.clapCount

  const readPost = await seedPost(folio, token)
  for (let i = 0; i < COMMENTS; i++) {
    const posted = await folio.call('POST', `/api/v1/blog/posts/${readPost}/comments`, {
      body: { authorName: `Reader ${i}`, content: `Comment number ${i} on the benchmark post.` },
      headers: { 'x-forwarded-for': `10.1.0.${i + 1}` },
    })
    await folio.call('POST', `/api/admin/blog/comments/${posted.body.data.id}/moderate`, { token, body: { action: 'approve' } })
  }
  const reads = await phase(`${folio.url}/api/v1/blog/posts/${readPost}/engagement`)

  console.log(`${CLIENTS} concurrent clients, ${PHASE_MS / 1000} s per phase, loopback`)
  console.log('phase                      requests  failures     req/s   p50 ms   p99 ms')
  for (const [name, r] of [
    ['claps (distinct clientKey)', claps],
    [`engagement (${COMMENTS} comments)`, reads],
  ] as const)
    console.log(
      `${name.padEnd(26)} ${String(r.requests).padStart(8)} ${String(r.errors).padStart(9)} ${r.rps.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)}`,
    )
  console.log(
    `clapCount after the clap phase: ${total} (every successful request counted once: ${total === claps.requests - claps.errors})`,
  )
} finally {
  await folio.dispose()
}
