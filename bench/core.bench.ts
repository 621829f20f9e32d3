/**
 * Core read and write costs with N posts (issue 2): the public detail and list reads and a draft
 * save, each against a bare Bun.serve answering the same bytes in the same run.
 *   bun bench/core.bench.ts [N ...]     (default: 1000 10000)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFolio, type Folio } from '../test/support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { formatLoad, runLoad, type LoadResult } from './support/load.ts'
import { seedPublishedCopies } from './support/seed.ts'

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0)
const SIZES = sizes.length ? sizes : [1000, 10000]

async function startBare(file: string): Promise<{ url: string; stop(): void }> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'support/bare-server.ts'), file], { stdout: 'pipe' })
  const reader = child.stdout.getReader()
  const { value } = await reader.read()
  return { url: new TextDecoder().decode(value).trim(), stop: () => child.kill() }
}

async function compare(label: string, api: () => Promise<LoadResult>, bare: () => Promise<LoadResult>) {
  const a = await api()
  const b = await bare()
  console.log(`  ${label}`)
  console.log(`    api  ${formatLoad(a)}`)
  console.log(`    bare ${formatLoad(b)}`)
  console.log(`    api/bare throughput ${(a.rps / b.rps).toFixed(2)}  p99 ratio ${(a.p99 / b.p99).toFixed(2)}`)
}

for (const n of SIZES) {
  const folio: Folio = await startFolio()
  const scratch = mkdtempSync(join(tmpdir(), 'folio-bench-'))
  try {
    const token = await folio.token('blog:write', 'blog:publish')
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    const template = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
    const t0 = performance.now()
    seedPublishedCopies(folio.dataDir, template.id, n - 1)
    const seeded = performance.now()
    // The copies bypassed the change feed: a full rebuild brings the artifacts up to date.
    const rebuilt = await folio.cli('rebuild')
    if (rebuilt.code !== 0) throw new Error(rebuilt.stderr)
    console.log(
      `\n== ${n} published posts (seeded in ${((seeded - t0) / 1000).toFixed(1)} s, artifacts rebuilt in ${((performance.now() - seeded) / 1000).toFixed(1)} s)`,
    )

    // Anonymous reads of pre-rendered paths are answered from the artifact file; a token-bearing
    // read and a page deeper than the pre-rendered five make the API render from SQLite.
    const detailPath = `/api/v1/blog/posts/${template.slug}?language=en`
    const listPath = '/api/v1/blog/posts?language=en&current=3'
    const deepListPath = '/api/v1/blog/posts?language=en&current=7'
    const reader = await folio.token('blog:read')
    const asReader = { headers: { authorization: `Bearer ${reader}` } }
    // Each save gets its own title, so the generated slug is found at the first probe.
    let saves = 0
    const draft = () =>
      JSON.stringify({ ...publishablePost(categoryId, authorId), title: `Benchmark draft number ${++saves}`, slug: undefined, status: 0 })
    const write = (name: string, body: string) => {
      const file = join(scratch, name)
      writeFileSync(file, body)
      return file
    }
    const detailBare = await startBare(write('detail.json', await (await fetch(folio.url + detailPath)).text()))
    const listBare = await startBare(write('list.json', await (await fetch(folio.url + listPath)).text()))
    const deepBare = await startBare(write('deep.json', await (await fetch(folio.url + deepListPath)).text()))
    const saveBare = await startBare(
      write(
        'save.json',
        await (
          await fetch(folio.url + '/api/v1/blog/posts/save', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: draft(),
          })
        ).text(),
      ),
    )
    try {
      const rows: [string, string, RequestInit, string][] = [
        ['GET post detail (artifact file)', detailPath, {}, detailBare.url],
        ['GET post detail (rendered: token-bearing call)', detailPath, asReader, detailBare.url],
        ['GET post list page 3 (artifact file)', listPath, {}, listBare.url],
        ['GET post list page 7 (rendered from SQLite)', deepListPath, {}, deepBare.url],
      ]
      for (const [label, path, init, bareUrl] of rows) {
        await compare(
          label,
          () => runLoad({ url: folio.url + path, init }),
          () => runLoad({ url: bareUrl }),
        )
      }
      const saveInit = () => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: draft(),
      })
      await compare(
        'POST posts/save (draft, SEO check included)',
        () => runLoad({ url: folio.url + '/api/v1/blog/posts/save', init: saveInit, maxRequests: 3000, concurrency: 4 }),
        () => runLoad({ url: saveBare.url, init: saveInit, maxRequests: 3000, concurrency: 4 }),
      )
    } finally {
      for (const bare of [detailBare, listBare, deepBare, saveBare]) bare.stop()
    }
    const pid = folio.process().pid
    const status = await Bun.file(`/proc/${pid}/status`).text()
    console.log(`  API process memory: ${/VmRSS:\s+(\d+ kB)/.exec(status)?.[1]} resident`)
  } finally {
    await folio.dispose()
    rmSync(scratch, { recursive: true, force: true })
  }
}
