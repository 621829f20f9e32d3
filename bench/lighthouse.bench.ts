/**
 * Lighthouse (mobile, default throttling) on every page type of the site tests' small bilingual
 * site, through Caddy, with Debian's Chromium: the four category scores per page and the LCP.
 * Lighthouse runs under Node (its CLI); the site is the same world test/site uses.
 * Usage: ./node_modules/.bin/bun bench/lighthouse.bench.ts
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSiteWorld } from '../test/site/world.ts'
import { run } from '../test/support/tools.ts'

const w = await startSiteWorld()
const out = mkdtempSync(join(tmpdir(), 'folio-lighthouse-'))
const pages: [string, string][] = [
  ['home (en)', '/en/'],
  ['post (en)', '/en/blog/choose-a-generator'],
  ['post (zh)', '/cn/blog/xuanze-shengchengqi'],
  ['category', `/en/category/${w.category.slug}/`],
  ['tag', `/cn/tag/${w.tag.slug}/`],
  ['author', `/en/author/${w.author.slug}/`],
]
try {
  console.log('| page | performance | accessibility | best practices | SEO | LCP (s) | weight (KiB) |')
  console.log('| --- | --- | --- | --- | --- | --- | --- |')
  for (const [name, path] of pages) {
    const file = join(out, `${name.replace(/\W+/g, '-')}.json`)
    const result = await run(
      [
        'node',
        'node_modules/lighthouse/cli/index.js',
        `${w.caddy.url}${path}`,
        '--quiet',
        '--output=json',
        `--output-path=${file}`,
        '--chrome-flags=--headless=new --no-sandbox',
      ],
      { env: { CHROME_PATH: '/usr/bin/chromium' }, timeoutMs: 180_000 },
    )
    if (result.code !== 0) throw new Error(`lighthouse failed on ${path}:\n${result.stderr.slice(-2000)}`)
    const report = JSON.parse(readFileSync(file, 'utf8'))
    const score = (id: string) => Math.round(report.categories[id].score * 100)
    const lcp = report.audits['largest-contentful-paint'].numericValue / 1000
    const weight = report.audits['total-byte-weight'].numericValue / 1024
    console.log(
      `| ${name} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${lcp.toFixed(1)} | ${weight.toFixed(0)} |`,
    )
  }
} finally {
  await w.dispose()
}
