import { Database } from 'bun:sqlite'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFolio, type Folio } from '../support/folio.ts'

// `cli backup` and `cli restore` stream the database (docs/operations.md, "Faults"): their peak
// memory does not grow with its size. Measured as the CLI process's peak resident set, for a
// small database and for the same one grown by PADDING_MB of random bytes (zeros would compress
// a thousandfold: one read of the archive would then inflate to the whole database).
const PADDING_MB = 128
const ROOT = resolve(import.meta.dir, '..', '..')
let folio: Folio
const base = mkdtempSync(join(tmpdir(), 'folio-backup-memory-'))
afterAll(async () => {
  await folio?.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** Runs the CLI with this environment; its peak resident set in bytes. */
async function peakMemory(env: Record<string, string>, ...args: string[]): Promise<number> {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), ...args], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
  expect([args[0], code, stderr]).toEqual([args[0], 0, ''])
  return proc.resourceUsage()!.maxRSS
}

test('backup and restore keep memory flat as the database grows', async () => {
  folio = await startFolio()
  await folio.stop()
  const measure = async (name: string) => {
    const file = join(base, `${name}.tar.gz`)
    const backup = await peakMemory(folio.env, 'backup', file)
    const restore = await peakMemory({ ...folio.env, DATA_DIR: join(base, `restored-${name}`) }, 'restore', file)
    return { backup, restore }
  }
  const small = await measure('small')
  const db = new Database(join(folio.dataDir, 'folio.db'))
  db.exec('create table padding (bytes blob)')
  db.query(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?) insert into padding select randomblob(1048576) from n`,
  ).run(PADDING_MB)
  db.close()
  expect(statSync(join(folio.dataDir, 'folio.db')).size).toBeGreaterThan(PADDING_MB * 1024 * 1024)
  const large = await measure('large')
  // Reading the database whole adds all of it and more; streamed, what grows is the garbage of
  // tar's and gzip's buffers before a collection: measured ~35 MB for tar alone at 128 MB as at
  // 384 MB, ~65 MB for the whole command; restoring adds ~10 MB.
  const allowed = PADDING_MB * 0.75 * 1024 * 1024
  expect(large.backup - small.backup).toBeLessThan(allowed)
  expect(large.restore - small.restore).toBeLessThan(allowed)
}, 120_000)
