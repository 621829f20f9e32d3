// Purge list sizes: `./node_modules/.bin/bun bench/purge.bench.ts [posts=40]`.
// A real server with `posts` published posts (three quarters English, a quarter Chinese) and a
// receiver subscribed to `blog.cache.purge`; then one publish, one edit of a published post, one
// delete and one publication-settings change, each followed by the URLs its render passes purged
// (docs/beyond-one-box.md quotes the figures).
import { readdirSync } from 'node:fs'
import { publishablePost, publishableZhPost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { addReceiver, startReceiver, TEST_ENV, waitForLog } from '../test/webhooks/receiver.ts'

const POSTS = Number(process.argv[2] ?? 40)
const receiver = startReceiver()
const folio = await startFolio({ ...TEST_ENV, SITE_URL: 'https://blog.example.com' })
try {
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const post = (i: number) => (i % 4 === 3 ? publishableZhPost(categoryId, authorId) : publishablePost(categoryId, authorId))
  for (let i = 0; i < POSTS; i++) await publishNewPost(folio, token, post(i))
  await addReceiver(folio, token, { url: receiver.url('/purge'), events: ['blog.cache.purge'] })

  /** Runs `act` and counts what the passes it caused purged, once rendered and delivered. */
  async function measure(what: string, act: () => Promise<unknown>) {
    const before = receiver.on('/purge').length
    await act()
    await folio.rendered()
    await waitForLog(folio, token, (records) => records.every((r) => r.status === 'delivered' || r.status === 'failed'), 60_000)
    const events = receiver
      .on('/purge')
      .slice(before)
      .map((r) => JSON.parse(r.body) as { urls: string[]; passId: string })
    const urls = events.flatMap((e) => e.urls)
    const api = urls.filter((u) => u.includes('/api/v1/blog/')).length
    console.log(
      `| ${what} | ${urls.length} | ${api} | ${urls.length - api} | ${events.length} | ${new Set(events.map((e) => e.passId)).size} |`,
    )
  }

  console.log(`${POSTS} published posts, SITE_URL https://blog.example.com\n`)
  console.log('| change | URLs purged | API reads | site | events | passes |')
  console.log('| --- | --- | --- | --- | --- | --- |')
  let published = { id: 0, slug: '' }
  await measure('publish a new post', async () => (published = await publishNewPost(folio, token, publishablePost(categoryId, authorId))))
  await measure('edit a published post (its title)', async () => {
    const saved = await folio.call('POST', '/api/v1/blog/posts/save', {
      token,
      body: { ...publishablePost(categoryId, authorId), id: published.id, slug: published.slug, status: 1 },
    })
    if (saved.body?.code !== '0000') throw new Error(saved.text)
  })
  await measure('delete a published post', () => folio.call('GET', `/api/v1/blog/posts/delete?id=${published.id}`, { token }))
  await measure('change the publication name', () =>
    folio.call('POST', '/api/admin/blog/publication-settings/save', { token, body: { nameEn: 'Field Notes, renamed' } }),
  )
  const files = readdirSync(folio.cacheDir, { recursive: true, withFileTypes: true })
  const served = files.filter((f) => f.isFile() && (f.name === '@' || f.name.startsWith('@')) && !/\.(br|gz)$/.test(f.name))
  console.log(`\nArtifact files Caddy serves: ${served.length}; a purge-everything drops all of them.`)
} finally {
  await folio.dispose()
  receiver.stop()
}
