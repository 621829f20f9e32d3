// Webhook benchmark: `./node_modules/.bin/bun bench/webhooks.bench.ts [publishes] [deliveries]`.
// 1. Publish latency without a receiver, with a subscribed receiver (queueing only, worker off),
//    and with the worker delivering meanwhile; interleaved so machine noise hits all alike.
// 2. Deliveries per second the worker sustains to a fast loopback receiver.
import { publishablePost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio, type Folio } from '../test/support/folio.ts'
import { addReceiver, startReceiver } from '../test/webhooks/receiver.ts'

const PUBLISHES = Number(process.argv[2] ?? 300)
const DELIVERIES = Number(process.argv[3] ?? 3000)
const ENV = { RATE_LIMIT_PER_MINUTE: '1000000' }
const receiver = startReceiver()

interface Setup {
  name: string
  folio: Folio
  token: string
  taxonomy: { categoryId: number; authorId: number }
  samples: number[]
}

async function setup(name: string, env: Record<string, string>, subscribed: boolean): Promise<Setup> {
  const folio = await startFolio({ ...ENV, ...env })
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  if (subscribed) await addReceiver(folio, token, { url: receiver.url(`/${name}`), events: ['blog.*'] })
  return { name, folio, token, taxonomy: await seedTaxonomy(folio, token), samples: [] }
}

/** Saves a draft (not timed), then times the publish call alone. */
async function timedPublish(s: Setup, record: boolean) {
  const saved = await s.folio.call('POST', '/api/v1/blog/posts/save', {
    token: s.token,
    body: { ...publishablePost(s.taxonomy.categoryId, s.taxonomy.authorId), status: 0 },
  })
  const started = performance.now()
  const published = await s.folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token: s.token })
  const elapsed = performance.now() - started
  if (published.body.code !== '0000') throw new Error(published.text)
  if (record) s.samples.push(elapsed)
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

async function publishLatency() {
  const setups = [
    await setup('none', {}, false),
    await setup('queued', { WEBHOOK_WORKER: 'off' }, true),
    await setup('delivering', {}, true),
  ]
  try {
    for (let i = 0; i < PUBLISHES + 20; i++) for (const s of setups) await timedPublish(s, i >= 20) // 20 warm-up rounds
    const base = quantile(setups[0]!.samples, 0.5)
    const baseMean = mean(setups[0]!.samples)
    console.log(`publish latency, ${PUBLISHES} publishes each (ms)`)
    for (const s of setups) {
      const p50 = quantile(s.samples, 0.5)
      console.log(
        `  ${s.name.padEnd(11)} p50 ${p50.toFixed(3)}  mean ${mean(s.samples).toFixed(3)}  p95 ${quantile(s.samples, 0.95).toFixed(3)}` +
          `  ratio p50 ${(p50 / base).toFixed(3)}  ratio mean ${(mean(s.samples) / baseMean).toFixed(3)}`,
      )
    }
  } finally {
    for (const s of setups) await s.folio.dispose()
  }
}

async function throughput() {
  const receivers = 20
  const s = await setup('throughput', { WEBHOOK_WORKER: 'off' }, false)
  try {
    for (let i = 0; i < receivers; i++) await addReceiver(s.folio, s.token, { url: receiver.url('/fast'), events: ['blog.*'] })
    const posts = Math.ceil(DELIVERIES / receivers)
    for (let i = 0; i < posts; i++) await timedPublish(s, false)
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

await publishLatency()
await throughput()
receiver.stop()
