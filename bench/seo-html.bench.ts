/**
 * The SEO HTML walk, htmlparser2 (src/modules/seo/html/parse.ts) against the ultrahtml walk it
 * replaced (bench/support/ultrahtml-walk.ts), alternating in the same run
 * (`bun bench/seo-html.bench.ts`). Real bodies (the worked examples repeated to ~3,000 and ~30,000
 * words) and adversarial ones at the 500,000-character limit. Prints ms per walk and new ÷ old.
 */
import { walkHtml } from '../src/modules/seo/html/parse.ts'
import { E0_HTML, Z0_HTML } from '../src/modules/seo/worked-examples.ts'
import { summarize, timeCalls } from './support/stats.ts'
import { walkHtml as walkUltrahtml } from './support/ultrahtml-walk.ts'

const LIMIT = 500_000
const fill = (unit: string, prefix = '', suffix = '') =>
  prefix + unit.repeat(Math.floor((LIMIT - prefix.length - suffix.length) / unit.length)) + suffix
const repeat = (html: string, copies: number) => Array.from({ length: copies }, () => html).join('\n')

const BODIES: Record<string, string> = {
  'en ~3,000 words': repeat(E0_HTML, 9),
  'en ~30,000 words': repeat(E0_HTML, 90),
  'zh ~30,000 words': repeat(Z0_HTML, 90),
  'run of <': fill('<'),
  'run of <!--': fill('<!--'),
  'unclosed comment': fill('x', '<p>a</p><!--'),
  'long space run in a tag': fill(' ', '<a', 'x>'),
  'nested div, 100,000 deep': fill('<div>'),
  'deep div, then stray ends': fill('<div>').slice(0, LIMIT / 2) + fill('</span>').slice(0, LIMIT / 2),
  'stray </p>': fill('</p>'),
  'entity starts': fill('&#'),
}

/** A visitor that touches what the rules read, so neither walk's work is optimized away. */
function walkWith(walk: typeof walkHtml, html: string): number {
  let n = 0
  walk(html, {
    open: (element) => void (n += element.name.length + Object.keys(element.attrs).length),
    close: () => void n++,
    text: (text) => void (n += text.length),
  })
  return n
}

const time = async (walk: typeof walkHtml, html: string) =>
  summarize(await timeCalls(() => walkWith(walk, html), { warmup: 1, calls: 5, minMs: 300, maxCalls: 200 })).p50

console.log('body                              old ms    new ms   new/old')
for (const [name, html] of Object.entries(BODIES)) {
  const olds: number[] = []
  const news: number[] = []
  // Alternate old and new three times, so a change of machine speed touches both alike.
  for (let round = 0; round < 3; round++) {
    olds.push(await time(walkUltrahtml, html))
    news.push(await time(walkHtml, html))
  }
  const old = Math.min(...olds)
  const now = Math.min(...news)
  console.log(`${name.padEnd(32)} ${old.toFixed(1).padStart(8)} ${now.toFixed(1).padStart(9)} ${(now / old).toFixed(2).padStart(9)}`)
}
