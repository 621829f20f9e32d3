/**
 * The import's own part alone, in one process (bench/import-cpu.bench.ts): composes the service as
 * the CLI does, runs `runImport` of FILE into a fresh DATA_DIR (a `.json` file as Ghost, else
 * WordPress), then the search catch-up, and prints one JSON line of their CPU (user + system of
 * every thread, the SEO threads included) and wall seconds, and the peak memory. The render pass
 * is not run. The code measured is the checkout in the working directory (a base checkout too),
 * so only what both have is used: `compose`, `runImport`, `READERS`, `checkRunner`, `catchUpSearchIndex`.
 * Run: cd CHECKOUT && bun /path/to/bench/support/import-run.ts FILE [REPORT.json]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const [file, reportFile] = process.argv.slice(2)
if (!file) throw new Error('usage: import-run.ts FILE [REPORT.json]')
const dir = mkdtempSync(join(tmpdir(), 'folio-import-run-'))
Object.assign(process.env, { DATA_DIR: dir, CACHE_DIR: join(dir, 'cache'), LOG_LEVEL: 'error' })
const code = (path: string) => import(resolve(process.cwd(), path))
const { loadConfig } = await code('src/config.ts')
const { compose } = await code('src/main.ts')
const { runImport, IMPORT_IN_FLIGHT } = await code('src/modules/import/run.ts')
const { READERS } = await code('src/modules/import/execute.ts')
const { checkRunner } = await code('src/modules/posts/check-tasks.ts')
const { catchUpSearchIndex } = await code('src/modules/search/fts.ts')

const config = loadConfig()
const service = await compose(config, {})
// As importSource (import/execute.ts) runs it: the checks on SEO_WORKERS threads, a long timeout.
const seo = checkRunner(config.seoWorkers, service.ctx.log, 600_000, IMPORT_IN_FLIGHT)
const cpu = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}
const [cpu0, wall0] = [cpu(), performance.now()]
const entries = READERS[file.endsWith('.json') ? 'ghost' : 'wordpress'](file)
const report = await runImport({ ...service.ctx, seo }, entries, { language: 'auto', status: 'keep', dryRun: false }).finally(() =>
  seo.close(),
)
const [cpu1, wall1] = [cpu(), performance.now()]
catchUpSearchIndex(service.ctx.db)
const cpu2 = cpu()
if (reportFile) await Bun.write(reportFile, JSON.stringify(report, null, 1))
await service.close()
rmSync(dir, { recursive: true, force: true })
console.log(
  JSON.stringify({
    importCpuS: cpu1 - cpu0,
    importWallS: (wall1 - wall0) / 1000,
    catchUpCpuS: cpu2 - cpu1,
    peakMB: process.resourceUsage().maxRSS / 1024,
    posts: report.posts.length,
  }),
)
