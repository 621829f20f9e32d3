// Webhook benchmark: `./node_modules/.bin/bun bench/webhooks.bench.ts [publishes] [deliveries]`.
// 1. Publish latency with and without a subscribed receiver, paired on one server (the receiver is
//    switched on and off between timed publishes, in alternating order), once with the worker off
//    (the cost of queueing alone) and once with the worker delivering meanwhile.
//    Then the same pairing in-process on the publish verb itself, without HTTP noise.
// 2. Deliveries per second the worker sustains to a fast loopback receiver.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { compose } from '../src/main.ts'
import type { PostSaveReq } from '../src/modules/posts/model.ts'
import { savePost } from '../src/modules/posts/save.ts'
import { publishPost } from '../src/modules/posts/status.ts'
import { saveAuthor } from '../src/modules/authors/authors.ts'
import { saveCategory } from '../src/modules/taxonomy/categories.ts'
import { saveReceiver } from '../src/modules/webhooks/receivers.ts'
import { publishablePost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio, type Folio } from '../test/support/folio.ts'
import { addReceiver, startReceiver } from '../test/webhooks/receiver.ts'
import { summarize, type Summary } from './support/stats.ts'

const PUBLISHES = Number(process.argv[2] ?? 500)
const DELIVERIES = Number(process.argv[3] ?? 5000)
const WARM_UP = 20
const ENV = { RATE_LIMIT_PER_MINUTE: '1000000' }
const receiver = startReceiver()

interface Setup {
  folio: Folio
  token: string
  taxonomy: { categoryId: number; authorId: number }
}

async function setup(env: Record<string, string>): Promise<Setup> {
  const folio = await startFolio({ ...ENV, ...env })
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  return { folio, token, taxonomy: await seedTaxonomy(folio, token) }
}

/** Saves a draft (not timed), then times the publish call alone; returns ms and webhookQueued. */
async function timedPublish(s: Setup): Promise<{ ms: number; queued: boolean }> {
  const saved = await s.folio.call('POST', '/api/v1/blog/posts/save', {
    token: s.token,
    body: { ...publishablePost(s.taxonomy.categoryId, s.taxonomy.authorId), status: 0 },
  })
  const started = performance.now()
  const published = await s.folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token: s.token })
  const ms = performance.now() - started
  if (published.body.code !== '0000') throw new Error(published.text)
  return { ms, queued: published.body.data.webhookQueued }
}

/**
 * Publishes with and without a subscribed receiver, paired: each round measures both, in
 * alternating order; the first WARM_UP rounds are not kept. Prints both and their ratio.
 */
async function paired(label: string, rounds: number, publish: (enabled: boolean) => Promise<number>) {
  const samples = { without: [] as number[], with: [] as number[] }
  for (let i = 0; i < rounds + WARM_UP; i++) {
    for (const enabled of i % 2 ? [true, false] : [false, true]) {
      const ms = await publish(enabled)
      if (i >= WARM_UP) samples[enabled ? 'with' : 'without'].push(ms)
    }
  }
  const without = summarize(samples.without)
  const withReceiver = summarize(samples.with)
  const line = (r: Summary) => `p50 ${r.p50.toFixed(3)}  mean ${r.mean.toFixed(3)}  p95 ${r.p95.toFixed(3)}`
  console.log(`${label}, ${rounds} publishes each (ms)`)
  console.log(`  without receiver  ${line(without)}`)
  console.log(`  with receiver     ${line(withReceiver)}`)
  console.log(
    `  ratio with/without: p50 ${(withReceiver.p50 / without.p50).toFixed(3)}, mean ${(withReceiver.mean / without.mean).toFixed(3)}`,
  )
}

async function pairedLatency(label: string, env: Record<string, string>) {
  const s = await setup(env)
  try {
    const hook = await addReceiver(s.folio, s.token, { url: receiver.url('/latency'), events: ['blog.*'] })
    const subscribe = (enabled: boolean) =>
      s.folio.call('POST', '/api/admin/blog/webhooks/save', {
        token: s.token,
        body: { id: hook.id, url: hook.url, events: hook.events, enabled },
      })
    await paired(label, PUBLISHES, async (enabled) => {
      await subscribe(enabled)
      const { ms, queued } = await timedPublish(s)
      if (queued !== enabled) throw new Error('webhookQueued does not match the subscription')
      return ms
    })
  } finally {
    await s.folio.dispose()
  }
}

/** The publish verb in this process (no HTTP, no worker): the closest look at what queueing adds. */
async function verbLatency() {
  const dir = mkdtempSync(join(tmpdir(), 'folio-bench-'))
  // awaited: compose() becomes async once the media store is merged in.
  const service = await compose(loadConfig({ DATA_DIR: dir, CACHE_DIR: join(dir, 'cache') }), { renderOnCommit: true })
  const { ctx } = service
  try {
    const caller = { tokenId: 1, name: 'bench', scopes: new Set(['blog:write', 'blog:publish'] as const) }
    const category = await saveCategory(ctx, { nameEn: 'Guides', nameZh: '指南' } as never)
    const author = await saveAuthor(ctx, { name: 'Jane Doe', language: 'en' } as never)
    const hook = saveReceiver(ctx, { url: 'http://127.0.0.1:9/hook', secret: 'whsec_bench_0123456789', events: ['blog.*'] })
    await paired('publish verb in-process (no HTTP, no worker)', 4 * PUBLISHES, async (enabled) => {
      saveReceiver(ctx, { id: hook.id, url: hook.url, events: hook.events, enabled })
      const draft = await savePost(ctx, caller, { ...publishablePost(category.id, author.id), status: 0 } as PostSaveReq)
      const started = performance.now()
      const published = await publishPost(ctx, draft.id)
      const ms = performance.now() - started
      if (published.webhookQueued !== enabled) throw new Error('webhookQueued does not match the subscription')
      return ms
    })
  } finally {
    await service.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function throughput() {
  const receivers = 20
  const s = await setup({ WEBHOOK_WORKER: 'off' })
  try {
    for (let i = 0; i < receivers; i++) await addReceiver(s.folio, s.token, { url: receiver.url('/fast'), events: ['blog.*'] })
    const posts = Math.ceil(DELIVERIES / receivers)
    for (let i = 0; i < posts; i++) await timedPublish(s)
    const total = posts * receivers
    // Everything is queued; now let a worker at it.
    await s.folio.stop()
    s.folio.env.WEBHOOK_WORKER = 'embedded'
    await s.folio.restart()
    const requests = await receiver.waitFor('/fast', total, 120_000)
    const seconds = (requests.at(-1)!.at - requests[0]!.at) / 1000
    console.log(`worker throughput: ${total} deliveries in ${seconds.toFixed(2)} s = ${Math.round((total - 1) / seconds)} deliveries/s`)
  } finally {
    await s.folio.dispose()
  }
}

await pairedLatency('publish latency, queueing only (worker off)', { WEBHOOK_WORKER: 'off' })
await pairedLatency('publish latency, worker delivering meanwhile', {})
await verbLatency()
await throughput()
receiver.stop()
