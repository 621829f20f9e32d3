import { afterAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { artifactJobs, posts } from '../../src/db/schema/index.ts'
import { compose } from '../../src/main.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

let folio: Folio | undefined
afterAll(async () => {
  await folio?.dispose()
})

/**
 * The engagement feature (another module) records `{ kind: 'engagement' }` whenever claps or
 * approved comments change. Here the service runs in this process so the test can record those
 * changes itself, as that module does, on the real database and cache folder.
 */
test('engagement counts in artifacts refresh on a bounded schedule, coalesced, not once per clap', async () => {
  folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000', ENGAGEMENT_REFRESH_SECONDS: '1' })
  const token = await folio.token('blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const post = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  await folio.stop()

  const service = compose(loadConfig(folio.env))
  try {
    const detail = join(folio.cacheDir, `api/v1/blog/posts/${post.slug}/en.json`)
    const read = () => JSON.parse(readFileSync(detail, 'utf8')).data
    const clap = () =>
      service.ctx.changes.write(service.ctx.db, (tx, record) => {
        const row = tx.select({ n: posts.clapCount }).from(posts).where(eq(posts.id, post.id)).get()!
        tx.update(posts)
          .set({ clapCount: row.n + 1 })
          .where(eq(posts.id, post.id))
          .run()
        record({ kind: 'engagement', postId: post.id })
      })
    for (let i = 0; i < 25; i++) await clap()
    // Nothing rendered per clap; one durable job per artifact, however many claps.
    expect(read().clapCount).toBe(0)
    const jobs = service.ctx.db
      .select()
      .from(artifactJobs)
      .where(eq(artifactJobs.path, `api/v1/blog/posts/${post.slug}/en.json`))
      .all()
    expect(jobs).toHaveLength(1)
    expect(jobs[0]!.dueAt).toBeGreaterThan(Date.now())

    // The sweeper renders it once the refresh interval has passed.
    const deadline = Date.now() + 5_000
    while (read().clapCount !== 25 && Date.now() < deadline) await Bun.sleep(100)
    expect(read().clapCount).toBe(25)
    const list = JSON.parse(readFileSync(join(folio.cacheDir, 'api/v1/blog/posts/_list/any/c-t-a/1.json'), 'utf8')).data
    expect(list.records.find((r: { id: number }) => r.id === post.id).clapCount).toBe(25)
    expect(service.publisher.pending()).toBe(0)
  } finally {
    service.close()
  }
})
