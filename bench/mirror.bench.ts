/**
 * The artifact mirror's cost per publish (issue 15): `bun bench/mirror.bench.ts [publishes]` (default 20).
 *
 * Two servers in the same run, one with `PUBLISH_TARGETS=disk` (the baseline) and one with
 * `disk,s3` against a real MinIO on loopback; each publishes the same number of posts one after
 * another. Printed: the publish answer time (the answer waits for the local render, not the
 * upload) for both and their ratio; with the mirror, the time from the publish sent until the
 * bucket holds its footprint (`/healthz` shows no mirror job left), and objects put and deleted
 * per publish. Bounded: fixed counts, every wait with a deadline. Loopback only.
 */
import { publishablePost, publishNewPost, seedTaxonomy } from '../test/support/fixtures.ts'
import { startFolio, type Folio } from '../test/support/folio.ts'
import { startMinio } from '../test/support/minio.ts'
import { summarize } from './support/stats.ts'

const PUBLISHES = Number(process.argv[2] ?? 20) || 20
const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

interface Mirror {
  pending: number
  put: number
  deleted: number
}
const mirrorOf = async (folio: Folio): Promise<Mirror> => (await (await fetch(`${folio.url}/healthz`)).json()).data.mirror

async function untilMirrored(folio: Folio): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(5)) if ((await mirrorOf(folio)).pending === 0) return
  throw new Error('the mirror did not catch up within 60 s')
}

async function run(env: Record<string, string>, mirrored: boolean) {
  const folio = await startFolio({ SITE_URL: 'https://blog.example.org', ...env })
  try {
    const token = await folio.token('blog:read', 'blog:write', 'blog:publish')
    const { categoryId, authorId } = await seedTaxonomy(folio, token)
    await folio.rendered()
    if (mirrored) await untilMirrored(folio)
    const answered: number[] = []
    const inBucket: number[] = []
    const objects: number[] = []
    for (let i = 0; i < PUBLISHES; i++) {
      const before = mirrored ? await mirrorOf(folio) : null
      const started = performance.now()
      await publishNewPost(folio, token, publishablePost(categoryId, authorId))
      answered.push(performance.now() - started)
      if (!before) continue
      await untilMirrored(folio)
      inBucket.push(performance.now() - started)
      const after = await mirrorOf(folio)
      objects.push(after.put + after.deleted - before.put - before.deleted)
    }
    return { answered: summarize(answered), inBucket: summarize(inBucket), objects: summarize(objects) }
  } finally {
    await folio.dispose()
  }
}

const minio = await startMinio()
try {
  const baseline = await run({}, false)
  const mirror = await run(
    {
      PUBLISH_TARGETS: 'disk,s3',
      ARTIFACTS_S3_ENDPOINT: minio.endpoint,
      ARTIFACTS_S3_ACCESS_KEY: minio.accessKey,
      ARTIFACTS_S3_SECRET_KEY: minio.secretKey,
    },
    true,
  )
  console.log(`artifact mirror, ${PUBLISHES} publishes one after another (save + publish), MinIO on loopback`)
  console.log(`publish answered, disk only:        p50 ${fmt(baseline.answered.p50)} ms  p95 ${fmt(baseline.answered.p95)} ms`)
  console.log(
    `publish answered, disk + s3:        p50 ${fmt(mirror.answered.p50)} ms  p95 ${fmt(mirror.answered.p95)} ms  (ratio ${fmt(mirror.answered.p50 / baseline.answered.p50, 2)})`,
  )
  console.log(
    `publish sent -> footprint in bucket: p50 ${fmt(mirror.inBucket.p50)} ms  p95 ${fmt(mirror.inBucket.p95)} ms  (ratio to disk-only answer ${fmt(mirror.inBucket.p50 / baseline.answered.p50, 2)})`,
  )
  console.log(
    `objects put or deleted per publish: mean ${fmt(mirror.objects.mean)}  p50 ${fmt(mirror.objects.p50, 0)}  max ${fmt(mirror.objects.p99, 0)}`,
  )
  const upload = mirror.inBucket.p50 - mirror.answered.p50
  console.log(
    `upload after the answer (p50 difference): ${fmt(upload)} ms per publish, ${fmt(upload / mirror.objects.p50, 2)} ms per object`,
  )
} finally {
  await minio.stop()
}
