/**
 * Business-resource figures: import time of a generated catalogue through the real CLI (first
 * import, identical re-import) and search latency over HTTP against the real server.
 * Run: ./node_modules/.bin/bun bench/resources.bench.ts [RESOURCES]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFolio } from '../test/support/folio.ts'
import { summarize, timeCalls } from './support/stats.ts'

const COUNT = Number(process.argv[2] ?? 10_000)
const WORDS = ['router', 'switch', 'cable', 'speaker', 'lamp', 'drive', 'camera', 'adapter', 'charger', 'monitor']

function catalogue() {
  const categories = []
  for (let a = 0; a < 5; a++) {
    categories.push({ code: `c${a}`, nameEn: `Group ${a}`, nameZh: `分组${a}` })
    for (let b = 0; b < 5; b++) {
      categories.push({ code: `c${a}-${b}`, parentCode: `c${a}`, nameEn: `Family ${a}.${b}`, nameZh: `系列${a}.${b}` })
      for (let c = 0; c < 4; c++)
        categories.push({
          code: `c${a}-${b}-${c}`,
          parentCode: `c${a}-${b}`,
          nameEn: `Line ${a}.${b}.${c}`,
          nameZh: `产品线${a}.${b}.${c}`,
        })
    }
  }
  const resources = Array.from({ length: COUNT }, (_, i) => {
    const word = WORDS[i % WORDS.length]!
    return {
      productId: `SKU-${i}`,
      nameEn: `${word} model ${i}`,
      nameZh: `${word} 型号 ${i}`,
      descriptionEn: `<p>A <strong>${word}</strong> for the home &amp; office, item ${i}.</p><ul><li>Two-year warranty</li></ul>`,
      descriptionZh: `<p>适合家庭与办公的<strong>${word}</strong>，编号 ${i}。</p>`,
      categoryCode: `c${i % 5}-${(i >> 3) % 5}-${i % 4}`,
      stock: i % 50,
      cnyPrice: 1000000 + i,
      usdtPrice: 150000 + i,
      sourceType: i % 3,
      status: i % 10 === 0 ? 2 : 1,
    }
  })
  return { categories, resources }
}

const dir = mkdtempSync(join(tmpdir(), 'folio-bench-'))
const file = join(dir, 'catalogue.json')
writeFileSync(file, JSON.stringify(catalogue()))
// The harness waits for the server's info-level "listening" line, so the log level stays at info.
const folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000' })
try {
  for (const label of ['first import', 're-import (unchanged)']) {
    const started = performance.now()
    const out = await folio.cli('resources', 'import', file)
    if (out.code !== 0) throw new Error(out.stderr)
    console.log(
      `${label} of ${COUNT} resources: ${(performance.now() - started).toFixed(0)} ms (CLI process, incl. start)`,
      out.stdout.trim().replace(/\n/g, '; '),
    )
  }
  const token = await folio.token('blog:read')
  const queries: Record<string, unknown> = {
    'no filter, page 1': {},
    'keywords "cable"': { keywords: 'cable' },
    'keywords "warranty 77" (description text)': { keywords: 'warranty 77' },
    'categoryCode c2 (21 descendant categories)': { categoryCode: 'c2' },
    'categoryCode + keywords + sourceType': { categoryCode: 'c1-2', keywords: 'switch', sourceType: 1 },
    'deep page (current 400)': { current: 400, size: 20 },
  }
  for (const [label, body] of Object.entries(queries)) {
    let total = 0
    const { p50, p95 } = summarize(
      await timeCalls(
        async () => {
          total = (await folio.call('POST', '/api/v1/blog/resources/search', { token, body })).body.data.total
        },
        { calls: 60 },
      ),
    )
    console.log(`search ${label}: total ${total}, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`)
  }
} finally {
  await folio.dispose()
  rmSync(dir, { recursive: true, force: true })
}
