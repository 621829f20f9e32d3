import { afterAll, beforeAll, expect, test } from 'bun:test'
import { seedPublishedCopies } from '../../bench/support/seed.ts'
import { FOREIGN_RENDER_CHECK_MS } from '../../src/modules/publishing/memory.ts'
import { LLMS_POSTS } from '../../src/modules/site/render.tsx'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'

// llms.txt is rewritten by every publish, so it names the newest posts only and points to the
// sitemap for the rest: its size (and a render pass's cost) does not grow with the site.
let folio: Folio
let newest: { slug: string }
beforeAll(async () => {
  // On a movable clock: the server looks at other processes' renders by it (FOREIGN_RENDER_CHECK_MS).
  folio = await startFolio({ SITE_URL: 'https://blog.example.org' }, { movableClock: true })
  const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  const { categoryId, authorId } = await seedTaxonomy(folio, token)
  const template = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
  await folio.stop()
  // Copies are published before the template, so the template stays the newest post.
  seedPublishedCopies(folio.dataDir, template.id, LLMS_POSTS + 5)
  await folio.restart()
  await folio.cli('rebuild')
  // The server sees another process's render within this bound (docs/publishing.md): moved past, not waited for.
  await folio.advanceClock(FOREIGN_RENDER_CHECK_MS)
  newest = template
})
afterAll(() => folio.dispose())

test(`llms.txt names the newest ${LLMS_POSTS} posts of a language, then the sitemap`, async () => {
  const text = await (await fetch(`${folio.url}/llms.txt`)).text()
  const english = text
    .split('\n## ')[1]!
    .split('\n')
    .filter((line) => line.startsWith('- ['))
  expect(english).toHaveLength(LLMS_POSTS + 1)
  expect(english[0]).toContain(`(https://blog.example.org/en/blog/${newest.slug}.md)`)
  expect(english.at(-1)).toBe('- [Every post: the sitemap](https://blog.example.org/sitemap.xml)')
})
