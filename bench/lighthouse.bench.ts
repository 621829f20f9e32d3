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
import sharp from 'sharp'

/**
 * The covers are a 1600x900 photo-like JPEG (a gradient with grain, as a camera's would compress),
 * so the weights show what responsive variants save: each page's weight is also given as a ratio
 * to the same page loading the original for every cover it shows (the baseline, same run).
 */
const photo = await sharp({
  create: { width: 1600, height: 900, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 120, sigma: 45 } },
})
  .blur(1.2)
  .composite([
    {
      input: Buffer.from(
        '<svg width="1600" height="900"><defs><linearGradient id="g"><stop offset="0" stop-color="#2a6"/><stop offset="1" stop-color="#d83" stop-opacity=".6"/></linearGradient></defs><rect width="1600" height="900" fill="url(#g)" opacity=".7"/></svg>',
      ),
      blend: 'over',
    },
  ])
  .jpeg({ quality: 82 })
  .toBuffer()
const w = await startSiteWorld({}, new Uint8Array(photo))
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
  console.log(`cover original: ${(photo.length / 1024).toFixed(0)} KiB`)
  console.log('| page | performance | accessibility | best practices | SEO | LCP (s) | weight (KiB) | images (KiB) | ÷ with originals |')
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
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
    const items: { url: string; transferSize: number }[] = report.audits['network-requests'].details.items
    // The cover's requests (its variants), whichever the browser chose.
    const images = items.filter((i) => i.url.startsWith(w.en.coverImage.replace(/\.\w+$/, '')))
    const imageKiB = images.reduce((n, i) => n + i.transferSize, 0) / 1024
    // The baseline: each of those requests loading the whole original instead.
    const baseline = weight - imageKiB + (images.length * photo.length) / 1024
    console.log(
      `| ${name} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${lcp.toFixed(1)} | ${weight.toFixed(0)} | ${imageKiB.toFixed(0)} | ${(weight / baseline).toFixed(2)} |`,
    )
  }
} finally {
  await w.dispose()
}
