// The artifact mirror end to end: the real server (PUBLISH_TARGETS=disk,s3) and a real MinIO.
// Publish, rename, unpublish and delete show up in the bucket; a store that was down catches up;
// `cli rebuild --target s3` repairs a bucket that was tampered with.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Client } from 'minio'
import { COPIES_MIN_BYTES } from '../../src/modules/publishing/copies-rule.ts'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import { item, wxr } from '../import/wxr.ts'
import { MINIO_SETUP_TIMEOUT_MS, startMinio, type RunningMinio } from '../support/minio.ts'

const B = '/api/v1/blog'
const BUCKET = 'folio-site'
const PREFIX = 'blog/'
/** Every wait below is bounded by this. */
const DEADLINE_MS = 30_000

let minio: RunningMinio
let folio: Folio
let admin: Client
let token: string
let taxonomy: { categoryId: number; authorId: number }
let publish: (overrides?: Record<string, unknown>) => Promise<{ id: number; slug: string }>

beforeAll(async () => {
  minio = await startMinio()
  admin = new Client({ endPoint: '127.0.0.1', port: minio.port, useSSL: false, accessKey: minio.accessKey, secretKey: minio.secretKey })
  folio = await startFolio({
    PUBLISH_TARGETS: 'disk,s3',
    ARTIFACTS_S3_ENDPOINT: minio.endpoint,
    ARTIFACTS_S3_ACCESS_KEY: minio.accessKey,
    ARTIFACTS_S3_SECRET_KEY: minio.secretKey,
    ARTIFACTS_S3_BUCKET: BUCKET,
    ARTIFACTS_S3_PREFIX: PREFIX,
  })
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  taxonomy = await seedTaxonomy(folio, token)
  publish = async (overrides = {}) => {
    const post = publishablePost(taxonomy.categoryId, taxonomy.authorId, overrides)
    const data = await publishNewPost(folio, token, post)
    return { id: data.id, slug: post.slug as string }
  }
}, MINIO_SETUP_TIMEOUT_MS)

afterAll(async () => {
  await folio?.dispose()
  await minio?.stop()
})

const mirrorHealth = async () => (await folio.call('GET', '/healthz')).body.data.mirror

/** Resolves once the server has rendered (compressed copies left for later included) and mirrored everything. */
async function mirrored(): Promise<void> {
  await folio.settled()
  for (const deadline = Date.now() + DEADLINE_MS; Date.now() < deadline; await Bun.sleep(100))
    if ((await mirrorHealth()).pending === 0) return
  throw new Error(`the mirror did not catch up within ${DEADLINE_MS} ms: ${JSON.stringify(await mirrorHealth())}`)
}

async function keys(): Promise<Set<string>> {
  const found = new Set<string>()
  for await (const item of admin.listObjectsV2(BUCKET, PREFIX, true)) if (item.name) found.add(item.name)
  return found
}

const objectBytes = async (key: string) =>
  Buffer.from(await (await admin.getObject(BUCKET, key)).toArray().then((parts) => Buffer.concat(parts)))
const apiKey = (slug: string) => `${PREFIX}api/v1/blog/posts/${slug}/@`
const pageKey = (slug: string) => `${PREFIX}en/blog/${slug}/@`
/** Every object of a post's own artifacts (its JSON read with its `.gz` alone, copies-rule.ts; its page with both copies). */
const postKeys = (slug: string) => [
  apiKey(slug),
  `${apiKey(slug)}.gz`,
  ...[pageKey(slug)].flatMap((key) => [key, `${key}.br`, `${key}.gz`]),
]

describe('artifact mirror to a real MinIO', () => {
  test('a publish puts the post’s artifacts with the bytes, content type, caching and encodings the site serves', async () => {
    const post = await publish()
    await mirrored()
    const all = await keys()
    for (const key of postKeys(post.slug)) expect(all).toContain(key)
    expect(all).not.toContain(`${apiKey(post.slug)}.br`)
    // No object for the spelled-out default: Caddy looks `?language=en` up as the main file.
    expect([...all].filter((key) => key.startsWith(`${PREFIX}api/v1/blog/posts/${post.slug}/@language=en`))).toEqual([])
    // The lists and feeds it appears on went too.
    expect(all).toContain(`${PREFIX}api/v1/blog/posts/@`)
    expect(all).toContain(`${PREFIX}api/v1/blog/rss.xml/@`)
    // An artifact too small for copies (the one category's list) is its main object alone, as on disk.
    expect(readFileSync(join(folio.cacheDir, 'api/v1/blog/categories/@')).length).toBeLessThan(COPIES_MIN_BYTES)
    const categories = `${PREFIX}api/v1/blog/categories/@`
    expect([all.has(categories), all.has(`${categories}.br`), all.has(`${categories}.gz`)]).toEqual([true, false, false])

    const served = await fetch(`${folio.url}${B}/posts/${post.slug}`)
    const bytes = Buffer.from(await served.arrayBuffer())
    expect(await objectBytes(apiKey(post.slug))).toEqual(bytes)
    const stat = await admin.statObject(BUCKET, apiKey(post.slug))
    expect(stat.metaData['content-type']).toBe(served.headers.get('content-type')!)
    expect(stat.metaData['cache-control']).toBe(served.headers.get('cache-control')!)

    const gz = await admin.statObject(BUCKET, `${apiKey(post.slug)}.gz`)
    expect(gz.metaData['content-encoding']).toBe('gzip')
    expect(gz.metaData['content-type']).toBe('application/json; charset=utf-8')
    expect(gunzipSync(await objectBytes(`${apiKey(post.slug)}.gz`))).toEqual(bytes)
    expect((await admin.statObject(BUCKET, pageKey(post.slug))).metaData['content-type']).toBe('text/html; charset=utf-8')
    const br = await admin.statObject(BUCKET, `${pageKey(post.slug)}.br`)
    expect([br.metaData['content-encoding'], br.metaData['content-type']]).toEqual(['br', 'text/html; charset=utf-8'])
    expect(brotliDecompressSync(await objectBytes(`${pageKey(post.slug)}.br`))).toEqual(
      readFileSync(join(folio.cacheDir, `en/blog/${post.slug}/@`)),
    )

    const health = await mirrorHealth()
    expect(health).toMatchObject({ pending: 0, failing: 0, lastError: null })
    expect(health.put).toBeGreaterThan(0)
  })

  test('a slug rename deletes the old keys and puts the new ones', async () => {
    const post = await publish()
    await mirrored()
    const moved = `${post.slug}-moved`
    const saved = await folio.call('POST', `${B}/posts/save`, {
      token,
      body: { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), id: post.id, slug: moved },
    })
    expect(saved.body.code).toBe('0000')
    await mirrored()
    const all = await keys()
    for (const key of postKeys(post.slug)) expect(all).not.toContain(key)
    for (const key of postKeys(moved)) expect(all).toContain(key)
  })

  test('unpublish and delete take the post’s objects out of the bucket', async () => {
    const [offline, deleted] = [await publish(), await publish()]
    await mirrored()
    expect((await folio.call('GET', `${B}/posts/operate?id=${offline.id}&status=2`, { token })).body.code).toBe('0000')
    expect((await folio.call('GET', `${B}/posts/delete?id=${deleted.id}`, { token })).body.data).toBe(true)
    await mirrored()
    const all = await keys()
    for (const key of [...postKeys(offline.slug), ...postKeys(deleted.slug)]) expect(all).not.toContain(key)
  })

  test(
    'publishes while the store is down are answered, show in /healthz, and reach the bucket once it is back, even after a crash of the server',
    async () => {
      await minio.halt()
      try {
        const post = await publish()
        await folio.rendered()
        // The local write is done: the site serves the post while the bucket cannot have it.
        expect((await folio.call('GET', `${B}/posts/${post.slug}`)).status).toBe(200)
        for (const deadline = Date.now() + DEADLINE_MS; (await mirrorHealth()).failing === 0; await Bun.sleep(100))
          if (Date.now() > deadline) throw new Error('no failed upload showed in /healthz')
        const health = await mirrorHealth()
        expect(health.pending).toBeGreaterThan(0)
        expect(health.lastError.error).toBeString()
        await minio.resume()
        await mirrored()
        expect(await keys()).toContain(apiKey(post.slug))
        expect((await mirrorHealth()).failing).toBe(0)

        // The same while the server dies before it could upload: the outbox row outlives it.
        await minio.halt()
        const orphan = await publish()
        await folio.rendered()
        expect((await mirrorHealth()).pending).toBeGreaterThan(0)
        await folio.stop(true)
        await minio.resume()
        await folio.restart()
        await mirrored()
        expect(await keys()).toContain(apiKey(orphan.slug))
      } finally {
        await minio.resume().catch(() => undefined)
      }
    },
    2 * DEADLINE_MS,
  )

  test('rebuild --target s3 puts back deleted and corrupted objects and deletes strays; a second run changes nothing', async () => {
    const post = await publish()
    // The copies a publish's burst left for a second later (COPIES_EVERY_MS) are written and put first.
    await folio.settled()
    await mirrored()
    const file = join(folio.cacheDir, 'api/v1/blog/posts', post.slug, '@')
    await admin.removeObject(BUCKET, apiKey(post.slug))
    await admin.removeObject(BUCKET, `${pageKey(post.slug)}.gz`)
    await admin.putObject(BUCKET, `${PREFIX}api/v1/blog/categories/@`, Buffer.from('{"tampered":true}'))
    await admin.putObject(BUCKET, `${PREFIX}stray/object.html`, Buffer.from('<p>not ours</p>'))
    // The `.br` of the JSON an older release put: the rule gives it none now, so it is a stray.
    await admin.putObject(BUCKET, `${apiKey(post.slug)}.br`, brotliCompressSync(readFileSync(file)))
    // Outside the prefix: not the mirror's to touch.
    await admin.putObject(BUCKET, 'elsewhere/keep.txt', Buffer.from('keep'))

    const run = await folio.cli('rebuild', '--target', 's3')
    expect(run.stderr).not.toContain('folio:')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(new RegExp(`mirrored to s3://${BUCKET}/${PREFIX}: 3 put, 2 deleted, \\d+ unchanged`))
    expect(await objectBytes(apiKey(post.slug))).toEqual(readFileSync(file))
    expect(await objectBytes(`${PREFIX}api/v1/blog/categories/@`)).toEqual(readFileSync(join(folio.cacheDir, 'api/v1/blog/categories/@')))
    const all = await keys()
    expect(all).toContain(`${pageKey(post.slug)}.gz`)
    expect(all).not.toContain(`${PREFIX}stray/object.html`)
    expect(all).not.toContain(`${apiKey(post.slug)}.br`)
    expect((await admin.statObject(BUCKET, 'elsewhere/keep.txt')).size).toBe(4)

    const again = await folio.cli('rebuild', '--target', 's3')
    expect(again.stdout).toMatch(/: 0 put, 0 deleted, \d+ unchanged/)
  })

  test('rebuild --force --target s3 puts every object again: headers an ETag cannot show come back', async () => {
    const post = await publish()
    await folio.settled()
    await mirrored()
    const key = apiKey(post.slug)
    const bytes = readFileSync(join(folio.cacheDir, 'api/v1/blog/posts', post.slug, '@'))
    const served = (await admin.statObject(BUCKET, key)).metaData['content-type']
    // The same bytes under stale headers (what a change of CDN_MAX_AGE leaves behind).
    await admin.putObject(BUCKET, key, bytes, bytes.length, { 'Content-Type': 'text/plain' })

    const plain = await folio.cli('rebuild', '--target', 's3')
    expect(plain.stdout).toMatch(/: 0 put, 0 deleted, \d+ unchanged/)
    expect((await admin.statObject(BUCKET, key)).metaData['content-type']).toBe('text/plain')

    const forced = await folio.cli('rebuild', '--force', '--target', 's3')
    expect(forced.code).toBe(0)
    const put = Number(/: (\d+) put, 0 deleted, 0 unchanged/.exec(forced.stdout)?.[1])
    expect(put).toBe((await keys()).size)
    expect((await admin.statObject(BUCKET, key)).metaData['content-type']).toBe(served)
    expect(await objectBytes(key)).toEqual(bytes)
  })

  test("an imported site's redirect files follow their shard into the bucket, through a slug change and a rebuild --target s3", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-mirror-import-'))
    const wxrFile = join(dir, 'old.xml')
    writeFileSync(wxrFile, wxr(item({ id: 77, slug: 'old-home' })))
    const imported = await folio.cli('import', 'wordpress', wxrFile)
    rmSync(dir, { recursive: true })
    expect(imported.code, imported.stderr).toBe(0)
    await mirrored()
    /** The redirect files on disk and their objects in the bucket, as keys. */
    const onDisk = () =>
      readdirSync(join(folio.cacheDir, '_moved'), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => PREFIX + relative(folio.cacheDir, join(entry.parentPath, entry.name)))
        .sort()
    const inBucket = async () => [...(await keys())].filter((key) => key.startsWith(`${PREFIX}_moved/`)).sort()
    expect(onDisk()).toContain(`${PREFIX}_moved/2013/01/11/@me/old-home@~en~blog~old-home~`)
    expect(await inBucket()).toEqual(onDisk())
    expect((await admin.statObject(BUCKET, `${PREFIX}_moved/2013/01/11/@me/old-home@~en~blog~old-home~`)).size).toBe(0)

    // The post takes a new slug: the files are renamed on disk, and in the bucket once mirrored.
    const post = (await folio.call('GET', `${B}/posts/old-home?language=en`)).body.data
    const writer = await folio.token('blog:write', 'blog:publish')
    const saved = await folio.call('POST', `${B}/posts/save`, {
      token: writer,
      body: { ...publishablePost(taxonomy.categoryId, taxonomy.authorId), id: post.id, slug: 'new-home', status: 1 },
    })
    expect(saved.body.code).toBe('0000')
    await mirrored()
    expect(onDisk()).toContain(`${PREFIX}_moved/2013/01/11/@me/old-home@~en~blog~new-home~`)
    expect(onDisk().filter((key) => key.endsWith('~old-home~'))).toEqual([])
    expect(await inBucket()).toEqual(onDisk())

    // A redirect object lost and a stray one under `_moved/`: rebuild --target s3 puts back the one, deletes the other.
    const lost = onDisk()[0]!
    await admin.removeObject(BUCKET, lost)
    await admin.putObject(BUCKET, `${PREFIX}_moved/@zz/gone@~en~blog~gone~`, Buffer.alloc(0))
    const run = await folio.cli('rebuild', '--target', 's3')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/: 1 put, 1 deleted, \d+ unchanged/)
    expect(await inBucket()).toEqual(onDisk())
  })

  test('rebuild --target refuses a target it does not know, and s3 when the bucket is not a publish target', async () => {
    const unknown = await folio.cli('rebuild', '--target', 'ftp')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('folio: --target must be s3, got "ftp"')
    const proc = Bun.spawn([process.execPath, 'src/cli.ts', 'rebuild', '--target', 's3'], {
      cwd: join(import.meta.dir, '..', '..'),
      env: { ...folio.env, PUBLISH_TARGETS: 'disk' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await proc.exited).toBe(1)
    expect(await new Response(proc.stderr).text()).toContain('rebuild --target s3 needs PUBLISH_TARGETS=disk,s3')
  })

  test('the start stops with one line when the bucket setting it needs is missing', async () => {
    const proc = Bun.spawn([process.execPath, 'src/main.ts'], {
      cwd: join(import.meta.dir, '..', '..'),
      env: { ...folio.env, PORT: '0', ARTIFACTS_S3_ENDPOINT: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(await proc.exited).toBe(1)
    expect(await new Response(proc.stderr).text()).toBe(
      'folio: invalid configuration: ARTIFACTS_S3_ENDPOINT: required when PUBLISH_TARGETS includes s3\n',
    )
  })
})
