/**
 * SEO check throughput and latency by post size (`bun bench/seo.bench.ts`).
 * A post is the worked example's body repeated: ~331 words (en) or ~768 characters (zh) a copy.
 * Last, checks/s through one SEO pool thread (SEO_WORKERS=1) against the same checks in process.
 */
import { CHECK_TASKS, type CheckTasks } from '../src/modules/posts/check-tasks.ts'
import { check } from '../src/modules/seo/engine.ts'
import { createPool, inProcess, type TaskRunner } from '../src/modules/seo/pool.ts'
import type { SeoInput } from '../src/modules/seo/types.ts'
import { E0, E0_HTML, NOW, WORLD, Z0, Z0_HTML } from '../src/modules/seo/worked-examples.ts'
import { worldFacts } from '../src/modules/seo/world-facts.ts'
import { createLogger } from '../src/shared/log.ts'
import { summarize, timeCalls } from './support/stats.ts'

const SIZES = [300, 3_000, 30_000]
const BUDGET_MS = 1_500

/** A post of about `words` English words, or the equivalent scale of Chinese characters (×2.3, as in E0/Z0). */
function postOf(base: SeoInput, html: string, copies: number): SeoInput {
  return { ...base, contentHtml: Array.from({ length: copies }, () => html).join('\n') }
}

/** Five untimed checks, then timed ones for at least `BUDGET_MS` and at least 20 calls. */
async function measure(input: SeoInput) {
  const r = summarize(await timeCalls(() => check(input, WORLD, NOW), { warmup: 5, calls: 20, minMs: BUDGET_MS }))
  return { perSecond: 1000 / r.mean, p50: r.p50, p99: r.p99, mean: r.mean }
}

console.log('lang  size     units   checks/s   p50 ms   p99 ms')
for (const [language, base, html] of [
  ['en', E0, E0_HTML],
  ['zh', Z0, Z0_HTML],
] as const) {
  const means: number[] = []
  for (const words of SIZES) {
    const input = postOf(base, html, Math.max(1, Math.round(words / 331)))
    const units = check(input, WORLD, NOW)
      .items.find((item) => item.code === 'thin_content')
      ?.message.match(/\d+/)?.[0]
    const r = await measure(input)
    means.push(r.mean)
    console.log(
      `${language}    ${String(words).padEnd(7)}  ${String(units).padStart(6)}  ${r.perSecond.toFixed(0).padStart(9)}  ${r.p50.toFixed(3).padStart(7)}  ${r.p99.toFixed(3).padStart(7)}`,
    )
  }
  console.log(`${language}    cost ratio 30,000 : 3,000 = ${((means[2] ?? 0) / (means[1] ?? 1)).toFixed(2)} (linear ≈ 10)`)
}

/** Checks/s of `runner` on `input`, one call after another (what one request after another gets). */
async function perSecond(runner: TaskRunner<CheckTasks>, input: SeoInput): Promise<number> {
  const job = { input, facts: worldFacts('check', input, WORLD, NOW), now: NOW.getTime() }
  const samples = await timeCalls(() => runner.run('check', job), { warmup: 5, calls: 20, minMs: BUDGET_MS })
  return 1000 / summarize(samples).mean
}

const pool = createPool<CheckTasks>(
  { size: 1, entry: new URL('../src/modules/posts/check-thread.ts', import.meta.url) },
  createLogger('error'),
)
console.log('\nen size  pool checks/s   in-process checks/s   pool : in-process')
for (const words of SIZES) {
  const input = postOf(E0, E0_HTML, Math.max(1, Math.round(words / 331)))
  const [viaPool, here] = [await perSecond(pool, input), await perSecond(inProcess(CHECK_TASKS), input)]
  console.log(
    `${String(words).padEnd(7)}  ${viaPool.toFixed(0).padStart(15)}  ${here.toFixed(0).padStart(20)}  ${(viaPool / here).toFixed(2).padStart(18)}`,
  )
}
await pool.close()
