/**
 * What a full rebuild creates on disk, old code against new on the same posts (issue 29 item 2,
 * "write fewer files"): `bun bench/rebuild-files.bench.ts --base main [posts]` (default 1000;
 * ROUNDS=3). Or BENCH_BASELINE=<another checkout>.
 *
 * It seeds the posts once (one publish through the real API, the rest cloned in SQLite:
 * support/seed.ts), stops the server, then alternates whole `cli rebuild --force` processes of
 * the base code and of this checkout into an emptied CACHE_DIR, with the same data and env
 * (RENDER_WORKERS=0 unless set). Per run: wall and CPU seconds (user + system of the process, and
 * system alone), and what the cache then holds: regular files, symlinks, folders.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startFolio } from '../test/support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { alternate, baselineOf, type Code } from './support/baseline.ts'
import { seedPublishedCopies } from './support/seed.ts'

const base = baselineOf(process.argv.slice(2))
if (!base) throw new Error('give the code to compare against: --base <git ref> or BENCH_BASELINE=<checkout>')
const size = Number(base.rest[0] ?? 1000)
const ROUNDS = Number(process.env.ROUNDS ?? 3)

/** Regular files, symlinks and folders under a folder (the folder itself aside). */
function inodes(root: string): { files: number; symlinks: number; folders: number } {
  const count = { files: 0, symlinks: 0, folders: 0 }
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        count.folders++
        walk(join(folder, entry.name))
      } else if (entry.isSymbolicLink()) count.symlinks++
      else count.files++
    }
  }
  walk(root)
  return count
}

const folio = await startFolio({ SITE_URL: 'https://blog.example.org' })
try {
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const template = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  // Seeded with the server stopped, and never restarted: each CLI rebuilds on its own.
  await folio.stop()
  seedPublishedCopies(folio.dataDir, template.id, size - 1)
  const env = { ...folio.env, LOG_LEVEL: 'warn', RENDER_WORKERS: process.env.RENDER_WORKERS ?? '0' }
  const codes: Code<string>[] = [
    { name: base.name, start: base.dir },
    { name: 'this checkout', start: join(import.meta.dir, '..') },
  ]
  console.log(`cli rebuild --force of ${size} published posts into an emptied CACHE_DIR, RENDER_WORKERS=${env.RENDER_WORKERS}`)
  await alternate(codes, ROUNDS, async (code) => {
    rmSync(folio.cacheDir, { recursive: true, force: true })
    const started = performance.now()
    const proc = Bun.spawn([process.execPath, join(code.start, 'src', 'cli.ts'), 'rebuild', '--force'], {
      cwd: code.start,
      env,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [out, err, exit] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    const wall = (performance.now() - started) / 1000
    if (exit !== 0) throw new Error(`rebuild failed (${exit}): ${out}${err}`)
    const usage = proc.resourceUsage()!
    const found = inodes(folio.cacheDir)
    console.log(`  ${out.trim().split('\n').at(-1)}`)
    return {
      'wall, s': wall,
      'CPU (user+sys), s': Number(usage.cpuTime.total) / 1e6,
      // The kernel's share: where creating inodes (files, folders, links) is paid.
      'CPU in the kernel (sys), s': Number(usage.cpuTime.system) / 1e6,
      'regular files': found.files,
      symlinks: found.symlinks,
      folders: found.folders,
    }
  })
} finally {
  await folio.dispose()
  base.cleanup()
}
