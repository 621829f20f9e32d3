/**
 * Static-first reads, measured: `bun bench/static.bench.ts [sizes…]` (default 1000 10000).
 *
 * For each site size it seeds published posts straight into SQLite (one transaction: the SEO
 * gate is not what is measured here), runs `cli rebuild` (timed), starts the real API and a
 * real Caddy with the project Caddyfile on loopback, then measures
 *   (a) anonymous post-detail reads: Caddy from disk, the API serving the same artifact, and the
 *       API rendering from SQLite (a query key that is not pre-rendered) — requests/s and p99;
 *   (b) publish-to-visible: from sending the publish call until Caddy serves the new post;
 *   (c) files rewritten per publish (main files and precompressed copies).
 * The load generator is a bounded loop of concurrent keep-alive fetches in this Bun process
 * (CONCURRENCY workers, DURATION_MS each run, loopback only).
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase, migrateDatabase } from '../src/db/client.ts'
import { authors, categories, posts, postTags, tags } from '../src/db/schema/index.ts'
import { startCaddy } from '../test/support/caddy.ts'
import { E0_HTML, publishablePost } from '../test/support/fixtures.ts'
import { startFolio } from '../test/support/folio.ts'
import { runLoad } from './support/load.ts'
import { summarize } from './support/stats.ts'

const CONCURRENCY = 16
const DURATION_MS = 4_000
const WARMUP_MS = 2_000
const PUBLISHES = 10
const sizes = process.argv.slice(2).map(Number).filter(Boolean)

const time = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ')

function seed(dataDir: string, count: number): string[] {
  const db = openDatabase(join(dataDir, 'folio.db'))
  migrateDatabase(db)
  const slugs: string[] = []
  db.transaction((tx) => {
    const categoryIds = Array.from(
      { length: 10 },
      (_, i) =>
        tx
          .insert(categories)
          .values({ slug: `category-${i}`, nameEn: `Category ${i}`, nameZh: `分类 ${i}` })
          .returning()
          .get().id,
    )
    const tagIds = Array.from(
      { length: 20 },
      (_, i) =>
        tx
          .insert(tags)
          .values({ slug: `tag-${i}`, nameEn: `Tag ${i}`, language: 'all' })
          .returning()
          .get().id,
    )
    const authorIds = Array.from(
      { length: 5 },
      (_, i) =>
        tx
          .insert(authors)
          .values({ slug: `author-${i}`, name: `Author ${i}`, language: 'en' })
          .returning()
          .get().id,
    )
    const start = Date.UTC(2024, 0, 1)
    for (let i = 0; i < count; i++) {
      const at = time(new Date(start + i * 60_000))
      const slug = `seeded-post-${i}`
      const row = tx
        .insert(posts)
        .values({
          language: 'en',
          slug,
          title: `Seeded post number ${i} about static site generators`,
          summary: `A summary of seeded post ${i}: what it covers and why it matters for choosing a static site generator.`,
          contentHtml: E0_HTML,
          contentText: E0_HTML.replace(/<[^>]+>/g, ' '),
          categoryId: categoryIds[i % categoryIds.length]!,
          authorId: authorIds[i % authorIds.length]!,
          status: 1,
          seoScore: 90,
          aeoScore: 80,
          publishedAt: at,
          createdAt: at,
          updatedAt: at,
        })
        .returning({ id: posts.id })
        .get()
      tx.insert(postTags)
        .values([
          { postId: row.id, tagId: tagIds[i % tagIds.length]! },
          { postId: row.id, tagId: tagIds[(i + 7) % tagIds.length]! },
        ])
        .run()
      slugs.push(slug)
    }
  })
  db.$client.close()
  return slugs
}

/** Requests/s and p99 of `DURATION_MS` of load after `WARMUP_MS` unrecorded; any answer but 200 is an error. */
async function load(url: (i: number) => string, headers: Record<string, string> = {}) {
  const r = await runLoad({
    url,
    init: { headers },
    concurrency: CONCURRENCY,
    durationMs: DURATION_MS,
    warmupMs: WARMUP_MS,
    ok: (response) => response.status === 200,
  })
  return { rps: Math.round(r.rps), p99: Number(r.p99.toFixed(2)), errors: r.errors }
}

/** main path → [mtimeMs, ino] for every file under the cache. */
function fileStamps(cacheDir: string): Map<string, string> {
  const stamps = new Map<string, string>()
  for (const entry of readdirSync(join(cacheDir, 'api'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = join(entry.parentPath, entry.name)
    const s = statSync(file)
    stamps.set(file, `${s.mtimeMs}:${s.ino}`)
  }
  return stamps
}

async function run(size: number) {
  const folio = await startFolio({ RATE_LIMIT_PER_MINUTE: '1000000' })
  // The first start made an empty site; seed into a stopped instance, then rebuild through the CLI.
  await folio.stop()
  const slugs = seed(folio.dataDir, size)
  const rebuildStarted = performance.now()
  const rebuilt = await folio.cli('rebuild')
  const rebuildMs = performance.now() - rebuildStarted
  if (rebuilt.code !== 0) throw new Error(rebuilt.stderr)
  await folio.restart()
  const caddy = await startCaddy({ apiUrl: folio.url, cacheDir: folio.cacheDir })
  try {
    const detail = (i: number) => `/api/v1/blog/posts/${slugs[(i * 7919) % slugs.length]}?language=en`
    const identity = { 'accept-encoding': 'identity' }
    const viaCaddy = await load((i) => `${caddy.url}${detail(i)}`, identity)
    const viaApiArtifact = await load((i) => `${folio.url}${detail(i)}`, identity)
    const viaApiRendered = await load((i) => `${folio.url}${detail(i)}&nocache=${i}`, identity)

    const token = await folio.token('blog:write', 'blog:publish')
    const category = await folio.call('GET', '/api/v1/blog/categories')
    const visible: number[] = []
    const rewritten: number[] = []
    const copies: number[] = []
    for (let i = 0; i < PUBLISHES; i++) {
      const post = publishablePost(category.body.data[0].id, null, { slug: `bench-post-${size}-${i}` })
      const saved = await folio.call('POST', '/api/v1/blog/posts/save', { token, body: { ...post, status: 0 } })
      const before = fileStamps(folio.cacheDir)
      const started = performance.now()
      const published = await folio.call('POST', `/api/v1/blog/posts/${saved.body.data.id}/publish`, { token })
      if (published.body.code !== '0000') throw new Error(published.text)
      for (let tries = 0; tries < 1000; tries++) {
        const response = await fetch(`${caddy.url}/api/v1/blog/posts/${post.slug}?language=en`)
        await response.arrayBuffer()
        if (response.status === 200 && !response.headers.has('x-request-id')) break
        await Bun.sleep(1)
      }
      visible.push(performance.now() - started)
      const after = fileStamps(folio.cacheDir)
      const changed = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file)
      rewritten.push(changed.filter((f) => !/\.(gz|br)$/.test(f)).length)
      copies.push(changed.filter((f) => /\.(gz|br)$/.test(f)).length)
    }
    const publishMs = summarize(visible).p50
    return {
      size,
      artifacts: [...fileStamps(folio.cacheDir).keys()].filter((f) => !/\.(gz|br)$/.test(f)).length,
      caddy: viaCaddy,
      apiArtifact: viaApiArtifact,
      apiRendered: viaApiRendered,
      ratioVsRendered: Number((viaCaddy.rps / viaApiRendered.rps).toFixed(1)),
      ratioVsArtifact: Number((viaCaddy.rps / viaApiArtifact.rps).toFixed(1)),
      publishToVisibleMs: Number(publishMs.toFixed(1)),
      rebuildMs: Math.round(rebuildMs),
      rebuildOutput: rebuilt.stdout.trim(),
      publishShareOfRebuild: `1/${Math.round(rebuildMs / publishMs)}`,
      filesRewrittenPerPublish: summarize(rewritten).p50,
      copiesRewrittenPerPublish: summarize(copies).p50,
    }
  } finally {
    await caddy.stop()
    await folio.dispose()
  }
}

for (const size of sizes.length ? sizes : [1_000, 10_000]) {
  const result = await run(size)
  console.log(JSON.stringify(result, null, 2))
}
