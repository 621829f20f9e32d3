import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSiteWorld } from '/work/wt/readers/test/site/world.ts'
import { run } from '/work/wt/readers/test/support/tools.ts'
const w = await startSiteWorld({})
const out = mkdtempSync(join(tmpdir(), 'lhd-'))
try {
  for (const path of ['/en/', '/en/blog/choose-a-generator']) {
    const file = join(out, 'r.json')
    const r = await run(['node','node_modules/lighthouse/cli/index.js',`${w.caddy.url}${path}`,'--quiet','--output=json',`--output-path=${file}`,'--only-categories=best-practices','--chrome-flags=--headless=new --no-sandbox'],{ env: { CHROME_PATH: '/usr/bin/chromium' }, timeoutMs: 180_000 })
    if (r.code !== 0) throw new Error(r.stderr.slice(-2000))
    const rep = JSON.parse(readFileSync(file,'utf8'))
    for (const ref of rep.categories['best-practices'].auditRefs) {
      const a = rep.audits[ref.id]
      if (a.score !== null && a.score < 1) console.log(path, ref.id, ref.weight, a.score, JSON.stringify(a.details?.items ?? a.displayValue).slice(0, 1500))
    }
  }
} finally { await w.dispose() }
