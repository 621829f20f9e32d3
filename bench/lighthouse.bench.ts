/**
 * Lighthouse (mobile, default throttling) on every page type of the site tests' small bilingual
 * site (plus a standalone page and a long post with three photos), through Caddy and straight
 * from the Bun process (`npm start`), with Debian's Chromium: the four category scores per page,
 * the LCP, the weight, and every audit that cost best practices a point. Then the Nu HTML
 * Checker (scripts/vnu.sh) on every page's HTML: its errors per page.
 * Lighthouse runs under Node (its CLI); the site is the same world test/site uses.
 * Usage: ./node_modules/.bin/bun bench/lighthouse.bench.ts [page-name-pattern]
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSiteWorld } from '../test/site/world.ts'
import { run } from '../test/support/tools.ts'
import { publishablePost, publishNewPost } from '../test/support/fixtures.ts'
import { E0 } from '../src/modules/seo/worked-examples.ts'
import sharp from 'sharp'

/**
 * The covers are a 1600x900 photo-like JPEG (a gradient with grain, as a camera's would compress),
 * so the weights show what responsive variants save: each page's weight is also given as a ratio
 * to the same page loading the original for every cover it shows (the baseline, same run).
 */
const photoOf = (mean: number) =>
  sharp({
    create: { width: 1600, height: 900, channels: 3, background: '#000', noise: { type: 'gaussian', mean, sigma: 45 } },
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
const photo = await photoOf(120)
const w = await startSiteWorld({}, new Uint8Array(photo))
const out = mkdtempSync(join(tmpdir(), 'folio-lighthouse-'))
/** Only the pages whose name matches this pattern (`long|search`): to re-run a page that scored low, to see whether it was load. */
const only = new RegExp(process.argv[2] ?? '')

/** An image upload's URL. */
async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const body = new FormData()
  body.append('file', new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' }))
  const answer = await w.folio.call('POST', '/api/v1/blog/media/upload', { token: w.token, body })
  if (answer.body?.code !== '0000') throw new Error(`upload failed: ${answer.text}`)
  return answer.body.data
}

// A long post: the worked example's body three times over, a different photo after each part.
const photos = [w.en.coverImage, await upload(await photoOf(90), 'b.jpg'), await upload(await photoOf(150), 'c.jpg')]
const part = (n: number) =>
  E0.contentHtml.replace(/<h2>([^<]*)<\/h2>/g, `<h2>$1 (${n + 1})</h2>`).replace(/https:\/\/images\.example\.org\/[\w.-]+/g, photos[n]!) +
  `<figure><img src="${photos[n]}" alt="Photo ${n + 1} of the field trip"><figcaption>Photo ${n + 1}</figcaption></figure>`
await publishNewPost(
  w.folio,
  w.token,
  publishablePost(w.categoryId, w.authorId, { slug: 'long-read', contentHtml: [0, 1, 2].map(part).join(''), coverImage: photos[1] }),
)
// A standalone page.
const about = await w.folio.call('POST', '/api/v1/blog/pages/save', {
  token: w.token,
  body: {
    language: 'en',
    title: 'About Field Notes',
    slug: 'about',
    contentMarkdown: '## Who writes here\n\nTwo engineers who build fast, readable websites.\n\n## Contact\n\nWrite to us by e-mail.',
    status: 1,
  },
})
if (about.body?.code !== '0000') throw new Error(`page failed: ${about.text}`)
await w.folio.settled()

const pages: [string, string][] = [
  ['home (en)', '/en/'],
  ['post (en)', '/en/blog/choose-a-generator'],
  ['post (zh)', '/cn/blog/xuanze-shengchengqi'],
  ['long post, 3 photos', '/en/blog/long-read'],
  ['category', `/en/category/${w.category.slug}/`],
  ['tag', `/cn/tag/${w.tag.slug}/`],
  ['author', `/en/author/${w.author.slug}/`],
  ['page', '/en/about'],
  ['search', '/en/search'],
]
const servers: [string, string][] = [
  ['Caddy', w.caddy.url],
  ['Bun', w.folio.url],
]

async function lighthouse(url: string, file: string) {
  const result = await run(
    [
      'node',
      'node_modules/lighthouse/cli/index.js',
      url,
      '--quiet',
      '--output=json',
      `--output-path=${file}`,
      '--chrome-flags=--headless=new --no-sandbox',
    ],
    { env: { CHROME_PATH: '/usr/bin/chromium' }, timeoutMs: 180_000 },
  )
  if (result.code !== 0) throw new Error(`lighthouse failed on ${url}:\n${result.stderr.slice(-2000)}`)
  return JSON.parse(readFileSync(file, 'utf8'))
}

try {
  console.log(
    `cover original: ${(photo.length / 1024).toFixed(0)} KiB; load average ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`,
  )
  console.log(
    '| server | page | performance | accessibility | best practices | SEO | LCP (s) | TBT (ms) | weight (KiB) | cover requests (KiB) | ÷ with originals |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  const lost: string[] = []
  for (const [server, base] of servers)
    for (const [name, path] of pages) {
      if (!only.test(name)) continue
      const report = await lighthouse(`${base}${path}`, join(out, `${server}-${name.replace(/\W+/g, '-')}.json`))
      const score = (id: string) => Math.round(report.categories[id].score * 100)
      for (const category of ['accessibility', 'best-practices', 'seo'])
        for (const ref of report.categories[category].auditRefs) {
          const audit = report.audits[ref.id]
          if (ref.weight > 0 && audit.score !== null && audit.score < 1)
            lost.push(`${server} ${name}: ${category} ${ref.id} (${audit.title})`)
        }
      const lcp = report.audits['largest-contentful-paint'].numericValue / 1000
      const tbt = report.audits['total-blocking-time'].numericValue
      const weight = report.audits['total-byte-weight'].numericValue / 1024
      const items: { url: string; transferSize: number }[] = report.audits['network-requests'].details.items
      // The cover's requests (its variants), whichever the browser chose.
      const images = items.filter((i) => i.url.startsWith(w.en.coverImage.replace(/\.\w+$/, '')))
      const imageKiB = images.reduce((n, i) => n + i.transferSize, 0) / 1024
      // The baseline: each of those requests loading the whole original instead.
      const baseline = weight - imageKiB + (images.length * photo.length) / 1024
      console.log(
        `| ${server} | ${name} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} | ${lcp.toFixed(1)} | ${tbt.toFixed(0)} | ${weight.toFixed(0)} | ${imageKiB.toFixed(0)} | ${(weight / baseline).toFixed(2)} |`,
      )
    }
  console.log(lost.length ? `\nPoints lost:\n${lost.join('\n')}` : '\nNo audit lost a point in accessibility, best practices or SEO.')

  // The Nu HTML Checker on each page's HTML, from each server (the same bytes, checked once each).
  const files: Record<string, string> = {}
  for (const [server, base] of servers)
    for (const [name, path] of pages) {
      const file = join(out, `${server}-${name.replace(/\W+/g, '-')}.html`)
      writeFileSync(file, await (await fetch(`${base}${path}`)).text())
      files[`file:${file}`] = `${server} ${name}`
    }
  const started = performance.now()
  const checked = await run(['bash', 'scripts/vnu.sh', 'check', ...Object.keys(files).map((f) => f.slice('file:'.length))], {
    timeoutMs: 300_000,
  })
  const messages: { type: string; subType?: string; url: string; message: string; lastLine?: number }[] = JSON.parse(
    checked.stdout,
  ).messages
  console.log(
    `\nNu HTML Checker (${((performance.now() - started) / 1000).toFixed(1)} s for ${Object.keys(files).length} pages, JVM start included):`,
  )
  for (const [file, name] of Object.entries(files)) {
    const mine = messages.filter((m) => m.url === file)
    const errors = mine.filter((m) => m.type === 'error')
    const warnings = mine.filter((m) => m.type === 'info' && m.subType === 'warning')
    console.log(`${name}: ${errors.length} errors, ${warnings.length} warnings`)
    for (const m of [...errors, ...warnings]) console.log(`  ${m.type === 'error' ? 'error' : 'warning'} line ${m.lastLine}: ${m.message}`)
  }
} finally {
  await w.dispose()
}
