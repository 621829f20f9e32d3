import { startFolio } from '../test/support/folio.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { seedPublishedCopies } from './support/seed.ts'
const size = Number(process.argv[2] ?? 5000)
const folio = await startFolio({ SITE_URL: 'https://blog.example.org', DATA_DIR: '/tmp/p5k/data', CACHE_DIR: '/tmp/p5k/cache' })
const token = await folio.token('blog:read', 'blog:write', 'blog:publish', 'blog:admin')
const { categoryId, authorId } = await seedTaxonomy(folio, token)
const template = await publishNewPost(folio, token, publishablePost(categoryId, authorId))
await folio.stop()
seedPublishedCopies('/tmp/p5k/data', template.id, size - 1)
console.log('seeded', size)
