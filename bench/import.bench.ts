/**
 * WordPress import figures (issue 27): a generated WXR of POSTS posts with three comments each,
 * imported through the real CLI into a fresh DATA_DIR. Reported: wall time and CPU time (every
 * thread of the process: the SEO threads too) of the import itself (up to its last progress line:
 * batches, checks, autofix), of the whole command (plus the search catch-up and the one render
 * pass; the import's CPU is read from /proc at its last progress line), the CLI's peak memory,
 * the files and folders the render pass made (the redirect files apart), and a re-import; the
 * baseline is the same file only streamed through the WXR reader (the parse alone, same run). The box is shared: the load average is
 * printed before and after, and CPU seconds are the figure that load does not inflate.
 * `--pad-mb N` adds N MB of items the import reads and skips (a plugin's custom post type with
 * large bodies, as real exports carry), to show memory follows the posts, not the file's size.
 * Run: ./node_modules/.bin/bun bench/import.bench.ts [POSTS] [--pad-mb N]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { generatedSite, item } from '../test/import/wxr.ts'

const { values, positionals } = parseArgs({ args: Bun.argv.slice(2), allowPositionals: true, options: { 'pad-mb': { type: 'string' } } })
const POSTS = Number(positionals[0] ?? 10_000)
const PAD_MB = Number(values['pad-mb'] ?? 0)
const ROOT = resolve(import.meta.dir, '..')
const dir = mkdtempSync(join(tmpdir(), 'folio-import-bench-'))
const file = join(dir, 'site.xml')

/** The site, written in parts so a padded file is never one string; padding items come first. */
async function writeSite(): Promise<void> {
  const site = generatedSite(POSTS, 3)
  const start = site.indexOf('<item>')
  const writer = Bun.file(file).writer()
  writer.write(site.slice(0, start))
  const body = `<p>${'Padding a plugin stored in its own post type. '.repeat(2_000)}</p>`
  for (let n = 0, written = 0; written < PAD_MB * 1024 * 1024; n++) {
    const padding = item({ id: 1_000_000 + n, slug: `product-${n}`, type: 'product', body })
    writer.write(padding)
    written += padding.length
  }
  writer.write(site.slice(start))
  await writer.end()
}
await writeSite()

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(', ')

interface Run {
  ms: number
  cpuMs: number
  maxRss: number
  stdout: string
  /** When the last progress line said the posts were done, in ms since the start (the import's own part). */
  importMs: number | null
  /** The process's CPU time (every thread) at that line, from /proc: the import's own CPU. */
  importCpuMs: number | null
}

const TICK_MS = 1000 / Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim() || 100)
/** A running process's user+system CPU time in ms, every thread counted (/proc/PID/stat fields 14 and 15). */
function cpuOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return null
  }
}

async function run(args: string[]): Promise<Run> {
  const started = performance.now()
  const env = { ...process.env, DATA_DIR: join(dir, 'data'), CACHE_DIR: join(dir, 'cache'), LOG_LEVEL: 'error' }
  const child = Bun.spawn([process.execPath, ...args], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
  let importMs: number | null = null
  let importCpuMs: number | null = null
  const progress = (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of child.stderr)
      if (/posts done/.test(decoder.decode(chunk))) {
        importMs = performance.now() - started
        importCpuMs = cpuOf(child.pid)
      }
  })()
  const stdout = await new Response(child.stdout).text()
  await Promise.all([child.exited, progress])
  const usage = child.resourceUsage()!
  const cpuMs = Number(usage.cpuTime.user + usage.cpuTime.system) / 1000
  return { ms: performance.now() - started, cpuMs, maxRss: usage.maxRSS /* bytes */, stdout, importMs, importCpuMs }
}

/** Files, folders and links under `root` (the inodes a render pass made). */
function inodes(root: string): { files: number; folders: number; links: number } {
  const count = { files: 0, folders: 0, links: 0 }
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true }))
    if (entry.isSymbolicLink()) count.links++
    else if (entry.isDirectory()) count.folders++
    else count.files++
  return count
}

const loadBefore = load()
const parse = await run([
  '-e',
  `import { readWordpress } from './src/modules/import/wordpress.ts'; let n = 0; for await (const e of readWordpress(${JSON.stringify(file)})) n++; console.log(n)`,
])
const imported = await run(['src/cli.ts', 'import', 'wordpress', file, '--report', join(dir, 'report.json')])
const report = await Bun.file(join(dir, 'report.json')).json()
const again = await run(['src/cli.ts', 'import', 'wordpress', file])
const x = (r: Run) => `${(r.ms / parse.ms).toFixed(1)}x the parse's wall, ${(r.cpuMs / parse.cpuMs).toFixed(1)}x its CPU`
console.log(`load average before: ${loadBefore}; after: ${load()} (2 cores)`)
console.log(`file: ${POSTS} posts, ${POSTS * 3} comments, ${mb(statSync(file).size)}${PAD_MB ? ` (${PAD_MB} MB of it skipped items)` : ''}`)
console.log(`parse only (baseline): ${s(parse.ms)} wall, ${s(parse.cpuMs)} CPU, peak ${mb(parse.maxRss)}`)
console.log(`import + one render pass: ${s(imported.ms)} wall, ${s(imported.cpuMs)} CPU (${x(imported)}), peak ${mb(imported.maxRss)}`)
if (imported.importMs !== null && imported.importCpuMs !== null)
  console.log(
    `  of it the import (to its last progress line): ${s(imported.importMs)} wall, ${s(imported.importCpuMs)} CPU; ` +
      `the rest (search catch-up, render pass) ${s(imported.ms - imported.importMs)} wall, ${s(imported.cpuMs - imported.importCpuMs)} CPU`,
  )
const cache = inodes(join(dir, 'cache'))
const moved = inodes(join(dir, 'cache', '_moved'))
const indexes = inodes(join(dir, 'cache', '_redirects'))
console.log(
  `  render pass: ${report.rendered.rendered} artifacts rendered (${report.counts.redirects.created} old URLs), ${report.rendered.written} written; ` +
    `CACHE_DIR holds ${cache.files} files, ${cache.folders} folders, ${cache.links} links, of them old URLs' files under _moved ${moved.files} files, ${moved.folders} folders, ` +
    `their shards' indexes under _redirects ${indexes.files} files, ${indexes.folders} folders`,
)
console.log(`re-import, nothing changed: ${s(again.ms)} wall, ${s(again.cpuMs)} CPU (${x(again)}), peak ${mb(again.maxRss)}`)
console.log(imported.stdout.split('\n').slice(0, 7).join('\n'))
rmSync(dir, { recursive: true, force: true })
