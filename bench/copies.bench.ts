/**
 * What the compressed copies' size threshold (src/modules/publishing/copies-rule.ts) saves:
 * `bun bench/copies.bench.ts [--base <git ref>] [POSTS] [IMPORT_POSTS]` (default 1000 and 1000;
 * BENCH_ROUNDS, default 2). With `--base main` (or BENCH_BASELINE=<another checkout>) the base
 * code and this checkout run alternately in the same window (support/baseline.ts), each its own
 * `src/cli.ts` on the same data:
 *   - `cli rebuild --force` into an emptied CACHE_DIR over POSTS published posts (one published
 *     through the API, the rest cloned in SQLite: support/seed.ts);
 *   - `cli import wordpress` of a generated WXR of IMPORT_POSTS posts with three comments each into
 *     a fresh DATA_DIR and CACHE_DIR, for the redirect artifacts (`_redirects/`, one per shard of old URLs).
 * Each prints the files (main files, compressed copies, symlinks), folders, bytes and disk blocks
 * it left in CACHE_DIR, with wall and CPU time (user + sys of the whole process). Then, over this checkout's
 * rebuilt cache, per kind of artifact: how many fall under the threshold and what their copies
 * would have cost on disk and saved on the wire.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { needsCopies, COPIES_MIN_BYTES } from '../src/modules/publishing/copies-rule.ts'
import { SIDECARS } from '../src/modules/publishing/writer.ts'
import { generatedSite } from '../test/import/wxr.ts'
import { startFolio } from '../test/support/folio.ts'
import { alternate, baselineOf, type Code, type Figures } from './support/baseline.ts'
import { seedPublished } from './support/seed.ts'

const base = baselineOf(process.argv.slice(2))
const [POSTS = 1000, IMPORT_POSTS = 1000] = (base?.rest ?? process.argv.slice(2)).map(Number).filter(Boolean)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const HERE = resolve(import.meta.dir, '..')

const COPY = /\.(br|gz)$/

/** What a CACHE_DIR holds: artifacts' main files, their copies, symlinks, folders, and the files' bytes and disk blocks (MB). */
function footprint(root: string, under = ''): Figures {
  const f = { mainFiles: 0, copies: 0, links: 0, folders: 0, MB: 0, diskMB: 0 }
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name)
      if (entry.isSymbolicLink()) f.links++
      else if (entry.isDirectory()) {
        f.folders++
        walk(full)
      } else if (entry.isFile() && !entry.name.startsWith('.')) {
        if (COPY.test(entry.name)) f.copies++
        else f.mainFiles++
        const stat = lstatSync(full)
        f.MB += stat.size / 1e6
        // What the file system spends on it: whole blocks, however few bytes it holds.
        f.diskMB += (stat.blocks * 512) / 1e6
      }
    }
  }
  walk(join(root, under))
  return f
}

/** Runs a whole process to its end: wall and CPU seconds (a failure throws with its output). */
async function timed(command: string[], cwd: string, env: Record<string, string>): Promise<{ wallS: number; cpuS: number }> {
  const started = performance.now()
  const child = Bun.spawn(command, { cwd, env, stdout: 'pipe', stderr: 'pipe' })
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  if (child.exitCode !== 0) throw new Error(`${command.join(' ')} failed (${child.exitCode}):\n${out}\n${err}`)
  const usage = child.resourceUsage()!
  return { wallS: (performance.now() - started) / 1000, cpuS: Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 }
}

// The rebuild's posts, seeded once; the server stopped: each code's CLI rebuilds on its own.
const folio = await startFolio({ SITE_URL: 'https://blog.example.org' })
await seedPublished(folio, await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin'), POSTS, false)
const env = { ...folio.env, LOG_LEVEL: 'warn' }

const scratch = mkdtempSync(join(tmpdir(), 'folio-copies-bench-'))
const wxr = join(scratch, 'site.xml')
writeFileSync(wxr, generatedSite(IMPORT_POSTS, 3))

const codes: Code<string>[] = [{ name: 'this checkout', start: HERE }]
if (base) codes.unshift({ name: base.name, start: base.dir })

await alternate(codes, ROUNDS, async (code) => {
  const figures: Figures = {}
  rmSync(folio.cacheDir, { recursive: true, force: true })
  const rebuild = await timed([process.execPath, join(code.start, 'src/cli.ts'), 'rebuild', '--force'], code.start, env)
  for (const [name, value] of Object.entries({ ...footprint(folio.cacheDir), ...rebuild })) figures[`rebuild ${name}`] = value
  const data = join(scratch, 'import')
  rmSync(data, { recursive: true, force: true })
  const imported = await timed([process.execPath, join(code.start, 'src/cli.ts'), 'import', 'wordpress', wxr], code.start, {
    ...process.env,
    DATA_DIR: join(data, 'data'),
    CACHE_DIR: join(data, 'cache'),
    LOG_LEVEL: 'error',
  } as Record<string, string>)
  for (const [name, value] of Object.entries(footprint(join(data, 'cache'), '_redirects'))) figures[`import _redirects/ ${name}`] = value
  for (const [name, value] of Object.entries({ ...footprint(join(data, 'cache')), ...imported })) figures[`import ${name}`] = value
  return figures
})

/** A kind of artifact, from its file's path: the first segments that name it, slugs and pages aside. */
function kindOf(path: string): string {
  if (path.startsWith('_redirects/')) return '_redirects (old URLs)'
  const segments = path.split('/').slice(0, -1)
  if (segments[0] === 'api') return `/api/v1/blog/${segments[3] ?? ''}${segments.length > 4 ? '/…' : ''}`
  if (segments.length === 0) return '/ (root page)'
  if (segments[0] === 'en' || segments[0] === 'cn') return `/{lang}/${segments[1] ?? ''}${segments.length > 2 ? '/…' : ''}`
  return `/${segments[0]}${segments.length > 1 ? '/…' : ''}`
}

/** This checkout's rebuilt cache and imported redirects, per kind: what falls under the threshold and what its copies would have been. */
rmSync(folio.cacheDir, { recursive: true, force: true })
await timed([process.execPath, join(HERE, 'src/cli.ts'), 'rebuild', '--force'], HERE, env)
const rows = new Map<string, { artifacts: number; small: number; bytes: number; copyFiles: number; copyBytes: number; wireSaved: number }>()
const survey = (root: string, prefix = '') => {
  const walk = (folder: string, rel: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) walk(join(folder, entry.name), path)
      else if (entry.isFile() && entry.name.startsWith('@') && !COPY.test(entry.name)) {
        const bytes = readFileSync(join(folder, entry.name))
        const row = rows.get(kindOf(path)) ?? { artifacts: 0, small: 0, bytes: 0, copyFiles: 0, copyBytes: 0, wireSaved: 0 }
        rows.set(kindOf(path), row)
        row.artifacts++
        if (needsCopies(bytes.length)) continue
        const copies = SIDECARS.map((s) => s.encode(bytes).length)
        row.small++
        row.bytes += bytes.length
        row.copyFiles += copies.length
        row.copyBytes += copies.reduce((a, b) => a + b, 0)
        row.wireSaved += bytes.length - copies[0]!
      }
    }
  }
  walk(root, prefix)
}
survey(folio.cacheDir)
survey(join(scratch, 'import', 'cache', '_redirects'), '_redirects')
console.log(`\n## artifacts under ${COPIES_MIN_BYTES} bytes, per kind (${POSTS} posts rebuilt; ${IMPORT_POSTS} imported for _redirects)\n`)
console.log(
  '| kind | artifacts | under the threshold | their bytes | copies not written | their bytes | brotli would save on the wire, each |',
)
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const [kind, r] of [...rows].sort((a, b) => b[1].small - a[1].small))
  console.log(
    `| ${kind} | ${r.artifacts} | ${r.small} | ${r.bytes} | ${r.copyFiles} | ${r.copyBytes} | ${r.small ? `${Math.round(r.wireSaved / r.small)} B` : '—'} |`,
  )

await folio.dispose()
rmSync(scratch, { recursive: true, force: true })
base?.cleanup()
