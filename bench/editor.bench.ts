/**
 * The editor's live check while typing (issue 26; docs/benchmarks.md, "The editor's live check"):
 * `POST /api/v1/blog/posts/check` as the editor sends it (the form through the editor's own
 * `requestOf`, the session cookie and the browser's same-origin headers), call after call, on a
 * 3,000-word Markdown post growing word by word, with N posts in the database; against two
 * baselines in the same run: `GET /healthz` on the same server, and a bare Bun.serve reading the
 * same request and answering the same bytes.
 *   bun bench/editor.bench.ts [N]     (default 10000)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emptyForm, requestOf } from '../src/modules/console/app/editor/form.ts'
import { consoleClient, printedSetupUrl } from '../test/admin/support.ts'
import { startFolio } from '../test/support/folio.ts'
import { seedPublished } from './support/seed.ts'
import { summarize, timeCalls } from './support/stats.ts'

const POSTS = Number(process.argv[2]) || 10_000
const WORDS = 3000
const CALLS = 200

/** A 3,000-word Markdown body: sections of paragraphs, a list now and then, made of plain words. */
function words(): string[] {
  const vocabulary =
    'static site generator build pages fast cache deploy template markdown content author reader search engine answer question theme'.split(
      ' ',
    )
  return Array.from({ length: WORDS }, (_, i) => vocabulary[(i * 7 + (i >> 3)) % vocabulary.length]!)
}
function markdownOf(list: string[]): string {
  let out = ''
  for (let i = 0; i < list.length; i += 150) {
    out += `## Section ${i / 150 + 1}\n\n`
    for (let j = i; j < Math.min(i + 150, list.length); j += 50) out += `${list.slice(j, Math.min(j + 50, i + 150)).join(' ')}.\n\n`
  }
  return out
}

const folio = await startFolio()
const scratch = mkdtempSync(join(tmpdir(), 'folio-bench-'))
let bare: { url: string; stop(): void } | null = null
try {
  // The owner signs in as a person does; the check goes with the session cookie, as from the console.
  const client = consoleClient(folio)
  const setup = new URL(printedSetupUrl(folio))
  const owner = { email: 'bench@example.org', password: 'a long and private passphrase' }
  await client.call('POST', '/admin/api/setup', {
    code: setup.searchParams.get('code'),
    nameEn: 'Bench',
    nameZh: '基准',
    ownerName: 'Bench',
    ...owner,
  })
  await client.call('POST', '/admin/api/sign-in', owner)
  const headers = {
    cookie: client.cookie,
    origin: folio.url,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/json',
  }
  const { categoryId, authorId, seededMs } = await seedPublished(folio, await folio.token('blog:write', 'blog:publish'), POSTS)
  console.log(`${POSTS} published posts (seeded in SQLite in ${(seededMs / 1000).toFixed(1)} s)`)

  // Typing the last 200 words of the post: each call sends the body one word longer.
  const all = words()
  const form = {
    ...emptyForm('en'),
    title: 'How to Choose a Static Site Generator for a Long Guide',
    categoryId,
    authorId,
    summary: 'What to weigh when choosing a static site generator, from build speed to themes and search.',
    coverImage: 'https://example.org/cover.png',
  }
  const bodies = Array.from({ length: CALLS }, (_, i) =>
    JSON.stringify(requestOf({ ...form, body: markdownOf(all.slice(0, WORDS - CALLS + i + 1)) })),
  )
  const check = async (i: number) => {
    const response = await fetch(`${folio.url}/api/v1/blog/posts/check`, { method: 'POST', headers, body: bodies[i % CALLS] })
    const answer = (await response.json()) as { code: string }
    if (answer.code !== '0000') throw new Error(`check refused: ${JSON.stringify(answer)}`)
  }
  const last = await fetch(`${folio.url}/api/v1/blog/posts/check`, { method: 'POST', headers, body: bodies[CALLS - 1] })
  const answerFile = join(scratch, 'check.json')
  writeFileSync(answerFile, await last.text())
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'support/bare-server.ts'), answerFile], { stdout: 'pipe' })
  const { value } = await child.stdout.getReader().read()
  bare = { url: new TextDecoder().decode(value).trim(), stop: () => child.kill() }
  const bareUrl = bare.url

  const rows: [string, (i: number) => Promise<unknown>][] = [
    [
      'GET /healthz (baseline)',
      (i) =>
        fetch(`${folio.url}/healthz`)
          .then((r) => r.arrayBuffer())
          .then(() => i),
    ],
    [
      'bare Bun.serve, same bytes',
      (i) => fetch(bareUrl, { method: 'POST', headers, body: bodies[i % CALLS] }).then((r) => r.arrayBuffer()),
    ],
    ['POST posts/check', check],
  ]
  const base = { p50: 0, p95: 0 }
  console.log(`\n${CALLS} calls each, one at a time, body ${bodies[0]!.length}–${bodies[CALLS - 1]!.length} B of JSON`)
  for (const [name, fn] of rows) {
    const s = summarize(await timeCalls(fn, { warmup: 10, calls: CALLS }))
    if (!base.p50) Object.assign(base, { p50: s.p50, p95: s.p95 })
    console.log(
      `${name.padEnd(28)} p50 ${s.p50.toFixed(1).padStart(6)} ms  p95 ${s.p95.toFixed(1).padStart(6)} ms  (${(s.p50 / base.p50).toFixed(1)}× / ${(s.p95 / base.p95).toFixed(1)}× healthz)`,
    )
  }
} finally {
  bare?.stop()
  await folio.dispose()
  rmSync(scratch, { recursive: true, force: true })
}
