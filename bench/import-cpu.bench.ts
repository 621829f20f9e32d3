/**
 * The import's own CPU (issue 27 item 6), old code against new in one window: a generated WXR of
 * POSTS posts with three comments each (default 1000), imported by `support/import-run.ts` in a
 * process of its own per run (`runImport` and the search catch-up, no render pass), the codes
 * alternated BENCH_ROUNDS times (default 2; support/baseline.ts). CPU seconds (user + system, every
 * thread) are the figure the box's load does not inflate; wall seconds beside them show the load.
 * Run: bun bench/import-cpu.bench.ts [--base main] [POSTS]
 * (SEO_WORKERS=0 runs the checks on the importing thread, as for a `--cpu-prof-md` profile.)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { generatedSite } from '../test/import/wxr.ts'
import { alternate, baselineOf, type Code, type Figures } from './support/baseline.ts'

const base = baselineOf(process.argv.slice(2))
const [POSTS = 1000] = (base?.rest ?? process.argv.slice(2)).map(Number).filter(Boolean)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const HERE = resolve(import.meta.dir, '..')
const RUNNER = join(import.meta.dir, 'support', 'import-run.ts')

const scratch = mkdtempSync(join(tmpdir(), 'folio-import-cpu-'))
const file = join(scratch, 'site.xml')
await Bun.write(file, generatedSite(POSTS, 3))

const codes: Code<string>[] = [{ name: 'this checkout', start: HERE }]
if (base) codes.unshift({ name: base.name, start: base.dir })
const load = () => loadavg()[0]!.toFixed(1)

console.log(`${POSTS} posts, ${POSTS * 3} comments; load average ${load()} (2 cores)`)
await alternate(codes, ROUNDS, async (code): Promise<Figures> => {
  const child = Bun.spawn([process.execPath, RUNNER, file], { cwd: code.start, stdout: 'pipe', stderr: 'inherit' })
  const [out] = await Promise.all([new Response(child.stdout).text(), child.exited])
  if (child.exitCode !== 0) throw new Error(`${code.name}: the import failed (${child.exitCode})`)
  const run = JSON.parse(out.trim().split('\n').pop()!) as Figures
  console.log(`${JSON.stringify(run)} load ${load()}`)
  return run
})
rmSync(scratch, { recursive: true, force: true })
base?.cleanup()
