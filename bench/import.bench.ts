/**
 * WordPress import figures (issue 27): a generated WXR of POSTS posts with three comments each,
 * imported through the real CLI into a fresh DATA_DIR: the import's own time (batches, SEO check
 * and autofix of every post), the one render pass at the end, and the CLI's peak memory; the
 * baseline is the same file only streamed through the WXR reader (the parse alone, same run).
 * Run: ./node_modules/.bin/bun bench/import.bench.ts [POSTS]
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { generatedSite } from '../test/import/wxr.ts'

const POSTS = Number(process.argv[2] ?? 10_000)
const ROOT = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'folio-import-bench-'))
const file = join(dir, 'site.xml')
writeFileSync(file, generatedSite(POSTS, 3))
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

async function run(args: string[]): Promise<{ ms: number; maxRss: number; stdout: string }> {
  const started = performance.now()
  const env = { ...process.env, DATA_DIR: join(dir, 'data'), CACHE_DIR: join(dir, 'cache'), LOG_LEVEL: 'error' }
  const child = Bun.spawn([process.execPath, ...args], { cwd: ROOT, env, stdout: 'pipe', stderr: 'ignore' })
  const stdout = await new Response(child.stdout).text()
  await child.exited
  return { ms: performance.now() - started, maxRss: child.resourceUsage()!.maxRSS /* bytes */, stdout }
}

const parse = await run([
  '-e',
  `import { readWordpress } from './src/modules/import/wordpress.ts'; let n = 0; for await (const e of readWordpress(${JSON.stringify(file)})) n++; console.log(n)`,
])
const imported = await run(['src/cli.ts', 'import', 'wordpress', file, '--report', join(dir, 'report.json')])
const report = await Bun.file(join(dir, 'report.json')).json()
const again = await run(['src/cli.ts', 'import', 'wordpress', file])
console.log(`file: ${POSTS} posts, ${POSTS * 3} comments, ${mb(statSync(file).size)}`)
console.log(`parse only (baseline): ${(parse.ms / 1000).toFixed(1)} s, peak ${mb(parse.maxRss)}`)
console.log(
  `import + one render pass: ${(imported.ms / 1000).toFixed(1)} s (${(imported.ms / parse.ms).toFixed(1)}x the parse), peak ${mb(imported.maxRss)}`,
)
console.log(`  render pass: ${report.rendered.rendered} artifacts rendered, ${report.rendered.written} written`)
console.log(
  `re-import, nothing changed: ${(again.ms / 1000).toFixed(1)} s (${(again.ms / parse.ms).toFixed(1)}x), peak ${mb(again.maxRss)}`,
)
console.log(imported.stdout.split('\n').slice(0, 6).join('\n'))
rmSync(dir, { recursive: true, force: true })
