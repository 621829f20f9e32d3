import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { E0_HTML } from '../support/fixtures.ts'
import { databaseAtFirstMigration } from '../support/first-migration.ts'
import { startFolio, type Folio } from '../support/folio.ts'

let base: string
let folio: Folio

/** A database as the release before this migration left it: only 0000_init applied, one post in it. */
function databaseBeforeUpgrade(dataDir: string): void {
  const db = databaseAtFirstMigration(dataDir, base)
  db.$client.run("insert into categories (slug, name_en) values ('guides', 'Guides')")
  db.$client.run(
    "insert into posts (language, slug, title, content_html, category_id) values ('en', 'old-post', 'An old post from before', ?, 1)",
    [E0_HTML],
  )
  db.$client.close()
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'folio-upgrade-'))
  const dataDir = join(base, 'data')
  mkdirSync(dataDir)
  databaseBeforeUpgrade(dataDir)
  folio = await startFolio({ DATA_DIR: dataDir })
})
afterAll(async () => {
  await folio.dispose()
  rmSync(base, { recursive: true, force: true })
})

test('after the upgrade an old post has version 1, and its first edit can be undone', async () => {
  const token = await folio.token('blog:write')
  const edited = await folio.call('POST', '/api/v1/blog/posts/save', {
    token,
    body: { id: 1, language: 'en', title: 'An old post, edited', contentHtml: E0_HTML, categoryId: 1 },
    headers: { 'if-match': '"1"' },
  })
  expect(edited.body.data).toMatchObject({ version: 2, title: 'An old post, edited' })
  const history = (await folio.call('GET', '/api/admin/blog/posts/1/revisions', { token })).body.data
  expect(history.records.map((r: { version: number; tokenName: string }) => [r.version, r.tokenName])).toEqual([
    [2, 'test-blog:write'],
    [1, ''],
  ])
  const restored = await folio.call('POST', '/api/admin/blog/posts/1/revisions/1/restore', { token })
  expect(restored.body.data).toMatchObject({ version: 3, title: 'An old post from before' })
})
