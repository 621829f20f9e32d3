import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CONTROL_HEADER, CONTROL_NOTE, REBUILD_PATH } from '../../src/operations/rebuild-control.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

// `cli rebuild` beside a running server is done by that server (docs/operations.md, "Rebuilds
// beside a running server"): no second renderer starts; without a server, the CLI rebuilds itself.
let folio: Folio
let post: { slug: string }
const elsewhere = mkdtempSync(join(tmpdir(), 'folio-handoff-'))

beforeAll(async () => {
  folio = await startFolio()
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
})
afterAll(async () => {
  await folio?.dispose()
  rmSync(elsewhere, { recursive: true, force: true })
})

const note = () => JSON.parse(readFileSync(join(folio.dataDir, CONTROL_NOTE), 'utf8')) as { pid: number; url: string; secret: string }
const summary = /^rebuilt artifacts: (\d+) rendered, \d+ written, \d+ removed, \d+ unchanged, \d+ skipped in \d+ ms$/m

describe('cli rebuild beside a running server', () => {
  test('the server notes where it answers, for its user alone; the rebuild route wants its secret and a valid body', async () => {
    expect(statSync(join(folio.dataDir, CONTROL_NOTE)).mode & 0o777).toBe(0o600)
    const { pid, url, secret } = note()
    expect(pid).toBe(folio.process().pid)
    expect(url).toBe(folio.url)
    const ask = (headers: Record<string, string>, body: unknown) =>
      fetch(`${url}${REBUILD_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    const stranger = await ask({ [CONTROL_HEADER]: secret.replace(/./, (c) => (c === 'a' ? 'b' : 'a')) }, { force: true })
    expect(stranger.status).toBe(401)
    expect(((await stranger.json()) as { code: string }).code).toBe('UNAUTHORIZED')
    const bad = await ask({ [CONTROL_HEADER]: secret }, { force: 'yes' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: 'INVALID_PARAMETER', message: 'force must be true or false' })
    const s3 = await ask({ [CONTROL_HEADER]: secret }, { target: 's3' })
    expect(s3.status).toBe(400)
    expect(((await s3.json()) as { message: string }).message).toContain('PUBLISH_TARGETS=disk,s3')
  })

  test('rebuild --force is handed to the server: the CLI waits, prints the summary, and /healthz shows the rebuild done', async () => {
    const out = await folio.cli('rebuild', '--force')
    expect(out.code).toBe(0)
    expect(out.stderr).toContain(`rebuild: handed to the server running on DATA_DIR (pid ${folio.process().pid}, ${folio.url})`)
    expect(Number(summary.exec(out.stdout)?.[1])).toBeGreaterThan(0)
    const health = (await (await fetch(`${folio.url}/healthz`)).json()) as { data: { rebuild: Record<string, unknown> } }
    expect(health.data.rebuild).toMatchObject({ id: 1, state: 'done', force: true, verify: false, target: null })
    // The artifacts are there (the server's log lines leave in batches: not read here).
    expect(existsSync(join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`))).toBe(true)
  })

  test("a rebuild into another CACHE_DIR is the CLI's own; --target s3 without the mirror is refused; the note goes with the server", async () => {
    const own = folio.env.CACHE_DIR!
    folio.env.CACHE_DIR = elsewhere
    try {
      const other = await folio.cli('rebuild')
      expect(other.code).toBe(0)
      expect(other.stderr).not.toContain('handed to the server')
      expect(existsSync(join(elsewhere, `api/v1/blog/posts/${post.slug}/@`))).toBe(true)
    } finally {
      folio.env.CACHE_DIR = own
    }
    const s3 = await folio.cli('rebuild', '--target', 's3')
    expect(s3.code).toBe(1)
    expect(s3.stderr).toContain('folio: rebuild --target s3 needs PUBLISH_TARGETS=disk,s3')
    // The note goes with the server: the next `cli rebuild` then finds DATA_DIR's lock free and works alone, as above.
    await folio.stop()
    expect(existsSync(join(folio.dataDir, CONTROL_NOTE))).toBe(false)
  })
})
