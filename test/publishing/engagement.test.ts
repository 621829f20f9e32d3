import { afterAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { until } from '../support/until.ts'

let folio: Folio | undefined
const REFRESH_MS = 60_000
afterAll(async () => {
  await folio?.dispose()
})

test('engagement counts in artifacts refresh on a bounded schedule, coalesced, not once per clap', async () => {
  // The refresh interval passes on the server's movable clock, not the real one: 25 claps on a
  // loaded box can take longer than any short interval, and a pass between them would render counts.
  folio = await startFolio({ ENGAGEMENT_REFRESH_SECONDS: String(REFRESH_MS / 1000) }, { movableClock: true })
  const token = await folio.token('blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  const detail = join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/@`)
  const read = () => JSON.parse(readFileSync(detail, 'utf8')).data

  // Nothing left from the publish (its copies, a background job) that a clap's job would join.
  await folio.settled()
  const firstClap = folio.now()
  // 25 readers clap through the real endpoint; the live count moves at once.
  for (let i = 0; i < 25; i++) {
    const res = await folio.call('POST', `/api/v1/blog/posts/${post.id}/reactions`, {
      body: { reactionKey: 'clap', clientKey: `reader-${i}`, count: 1 },
    })
    expect(res.body.code).toBe('0000')
  }
  expect((await folio.call('GET', `/api/v1/blog/posts/${post.id}/engagement`)).body.data.clapCount).toBe(25)

  // Nothing rendered per clap: one durable job per artifact, however many claps.
  expect(read().clapCount).toBe(0)
  const db = new Database(join(folio.dataDir, 'folio.db'), { readonly: true })
  const jobs = db.query('select due_at from artifact_jobs where path = ?').all(`api/v1/blog/posts/${post.slug}/@`) as {
    due_at: number
  }[]
  db.close()
  expect(jobs).toHaveLength(1)
  // Due one interval after the first clap (later claps do not put it off).
  expect(jobs[0]!.due_at).toBeGreaterThanOrEqual(firstClap + REFRESH_MS)
  expect(jobs[0]!.due_at).toBeLessThanOrEqual(folio.now() + REFRESH_MS)

  // The sweeper renders the detail and the lists once the refresh interval has passed (claps that
  // landed while a pass ran are in the next one, so the two may arrive a pass apart).
  const listed = () =>
    JSON.parse(readFileSync(join(folio!.cacheDir, 'api/v1/blog/posts/@'), 'utf8')).data.records.find(
      (r: { id: number }) => r.id === post.id,
    ).clapCount
  await folio.advanceClock(REFRESH_MS)
  await until(() => read().clapCount === 25 && listed() === 25, 'the counts in the detail and the list')
  expect(read().clapCount).toBe(25)
  expect(listed()).toBe(25)
})

test('approved comments are in the post page as built, threaded and dated, after the same bounded refresh', async () => {
  const token = await folio!.token('blog:write', 'blog:publish')
  const admin = await folio!.token('blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio!, token)
  const post = await publishNewPost(folio!, token, publishablePost(categoryId, authorId, { slug: 'commented-post' }))
  const comment = async (body: Record<string, unknown>) => {
    const made = await folio!.call('POST', `/api/v1/blog/posts/${post.id}/comments`, { body })
    expect(made.body.code).toBe('0000')
    const approved = await folio!.call('POST', `/api/admin/blog/comments/${made.body.data.id}/moderate`, {
      token: admin,
      body: { action: 'approve' },
    })
    expect(approved.body.code).toBe('0000')
    return made.body.data.id as number
  }
  const parent = await comment({ authorName: 'Ann <b>', content: 'First & foremost.' })
  const reply = await comment({ authorName: 'Bo', content: 'A reply.', parentId: parent })
  const page = () => readFileSync(join(folio!.cacheDir, 'en/blog/commented-post/@'), 'utf8')
  await folio!.advanceClock(REFRESH_MS)
  await until(() => page().includes(`comment-${reply}`), 'the reply in the post page')
  const html = page()
  const list = html.slice(html.indexOf('<ol class="comments">'), html.indexOf('</ol>', html.indexOf('<ol class="comments">')))
  expect(list).toMatch(new RegExp(`<li class="depth-0" id="comment-${parent}"><p class="who">Ann &lt;b> · <time datetime="\\d{4}-`))
  expect(list).toContain('First &amp; foremost.')
  expect(list.indexOf(`id="comment-${reply}"`)).toBeGreaterThan(list.indexOf(`id="comment-${parent}"`))
  expect(list).toContain(`<li class="depth-1" id="comment-${reply}">`)
})
