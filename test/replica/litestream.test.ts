// Continuous replication end to end: real Folio, real Litestream, real MinIO. Writes posts, measures
// how long an acknowledged write takes to be visible in a `litestream restore`, loses the box's data
// folder, restores into a fresh DATA_DIR and finds every replicated post through the API.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from 'minio'
import { publishablePost, publishNewPost, seedTaxonomy } from '../support/fixtures.ts'
import { startFolio, type Folio } from '../support/folio.ts'
import {
  installLitestream,
  LITESTREAM_SETUP_TIMEOUT_MS,
  restoreReplica,
  startLitestream,
  type RunningLitestream,
} from '../support/litestream.ts'
import { MINIO_SETUP_TIMEOUT_MS, startMinio, type RunningMinio } from '../support/minio.ts'

const ROOT = join(import.meta.dir, '..', '..')
const BUCKET = 'folio-db'
/** Every wait below is bounded by this; Litestream ships new frames every second. */
const REPLICATION_DEADLINE_MS = 30_000

let minio: RunningMinio
let litestream: RunningLitestream | undefined
let folio: Folio | undefined
let root: string
let replicaEnv: Record<string, string>
let token: string
let taxonomy: { categoryId: number; authorId: number }
/** Posts the API acknowledged, by slug, with their titles. */
const acknowledged = new Map<string, string>()
const lagsMs: number[] = []

beforeAll(async () => {
  ;[minio] = await Promise.all([startMinio(), installLitestream()])
  const admin = new Client({
    endPoint: '127.0.0.1',
    port: minio.port,
    useSSL: false,
    accessKey: minio.accessKey,
    secretKey: minio.secretKey,
  })
  await admin.makeBucket(BUCKET)
  root = mkdtempSync(join(tmpdir(), 'folio-replica-'))
  replicaEnv = {
    // The machine's own environment (CA bundles included), as an operator's shell would have it.
    ...(Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== undefined)) as Record<string, string>),
    DATA_DIR: join(root, 'data'),
    REPLICA_S3_ENDPOINT: minio.endpoint,
    REPLICA_S3_ACCESS_KEY: minio.accessKey,
    REPLICA_S3_SECRET_KEY: minio.secretKey,
    REPLICA_S3_BUCKET: BUCKET,
  }
  // Folio creates and migrates the database; Litestream then follows its WAL.
  folio = await startFolio({ DATA_DIR: replicaEnv.DATA_DIR!, DB_REPLICATION: 'litestream' })
  litestream = startLitestream(replicaEnv)
  token = await folio.token('blog:read', 'blog:write', 'blog:publish')
  taxonomy = await seedTaxonomy(folio, token)
}, MINIO_SETUP_TIMEOUT_MS + LITESTREAM_SETUP_TIMEOUT_MS)

afterAll(async () => {
  await folio?.dispose()
  await litestream?.stop()
  await minio?.stop()
  if (root) rmSync(root, { recursive: true, force: true })
})

async function writePost(): Promise<string> {
  const post = publishablePost(taxonomy.categoryId, taxonomy.authorId)
  await publishNewPost(folio!, token, post)
  acknowledged.set(post.slug as string, post.title as string)
  return post.slug as string
}

let scratch = 0
/**
 * Restores the replica's current state into a scratch file and reads the published posts' slugs;
 * undefined before Litestream's first upload, when there is nothing to restore yet.
 */
async function replicatedSlugs(env = replicaEnv): Promise<Set<string> | undefined> {
  const file = join(root, `scratch-${++scratch}.db`)
  const restored = await restoreReplica(env, file)
  if (restored.code !== 0) return undefined
  const db = new Database(file, { readonly: true })
  try {
    return new Set(
      db
        .query<{ slug: string }, []>('SELECT slug FROM posts WHERE status = 1')
        .all()
        .map((row) => row.slug),
    )
  } finally {
    db.close()
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
  }
}

/** Milliseconds from now (just after a write was acknowledged) until a restore shows it. */
async function lagOf(slug: string): Promise<number> {
  const acked = performance.now()
  await until(`post ${slug} replicated (litestream said: ${litestream!.output()})`, REPLICATION_DEADLINE_MS, async () =>
    Boolean((await replicatedSlugs())?.has(slug)),
  )
  return performance.now() - acked
}

/** Resolves once `check` holds, polling every 100 ms; throws after `ms`. */
async function until(what: string, ms: number, check: () => boolean | Promise<boolean>) {
  const deadline = performance.now() + ms
  while (performance.now() < deadline) {
    if (await check()) return
    await Bun.sleep(100)
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

describe('Litestream replication of folio.db to MinIO', () => {
  test(
    'every acknowledged write shows up in a restore of the replica, within the replication lag',
    async () => {
      for (let i = 0; i < 3; i++) lagsMs.push(await lagOf(await writePost()))
      console.log(`replication lag (acknowledged write -> visible in litestream restore), ms: ${lagsMs.map(Math.round).join(', ')}`)
      const replicated = await replicatedSlugs()
      for (const slug of acknowledged.keys()) expect(replicated?.has(slug)).toBe(true)
    },
    4 * REPLICATION_DEADLINE_MS,
  )

  test(
    'the box loses its data folder: a restore into a fresh DATA_DIR serves every replicated post',
    async () => {
      // More acknowledged writes, waited for (the lag measured above), then writes still in flight when the box dies.
      for (let i = 0; i < 3; i++) await writePost()
      const replicated = new Set(acknowledged.keys())
      await lagOf([...replicated].at(-1)!)
      const inFlight = [await writePost(), await writePost()]

      // The box dies: Folio and Litestream killed outright, the data folder gone.
      await folio!.stop(true)
      await litestream!.stop(true)
      rmSync(replicaEnv.DATA_DIR!, { recursive: true, force: true })

      // Fail over: restore into a fresh DATA_DIR, then start Folio on it.
      const freshDataDir = join(root, 'restored')
      const env = { ...replicaEnv, DATA_DIR: freshDataDir }
      const restoreStarted = performance.now()
      const restored = await restoreReplica(env)
      expect(restored.code, restored.stderr).toBe(0)
      console.log(`litestream restore into the fresh DATA_DIR took ${Math.round(performance.now() - restoreStarted)} ms`)
      const check = new Database(join(freshDataDir, 'folio.db'), { readonly: true })
      expect(check.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' })
      check.close()
      // Restoring over a live database is refused, naming the file.
      const again = await restoreReplica(env)
      expect(again.code).not.toBe(0)
      expect(again.stderr).toContain(join(freshDataDir, 'folio.db'))

      await folio!.dispose()
      folio = await startFolio({ DATA_DIR: freshDataDir, DB_REPLICATION: 'litestream' })
      for (const slug of replicated) {
        const read = await folio.call('GET', `/api/v1/blog/posts/${slug}?language=en`)
        expect(read.status, `${slug}: ${read.text}`).toBe(200)
        expect(read.body.data.title).toBe(acknowledged.get(slug)!)
      }
      // Writes in flight at the kill are either whole or absent, never half there.
      let survived = 0
      for (const slug of inFlight) {
        const read = await folio.call('GET', `/api/v1/blog/posts/${slug}?language=en`)
        if (read.body?.code === 'BLOG_NOT_FOUND') continue
        expect(read.status, `${slug}: ${read.text}`).toBe(200)
        expect(read.body.data.title).toBe(acknowledged.get(slug)!)
        survived++
      }
      console.log(`writes acknowledged within the last lag before the kill that survived: ${survived} of ${inFlight.length}`)
      // The restored box is the writer now: its tokens came back with the database, and once
      // Litestream runs beside it again, its new writes reach the same replica.
      litestream = startLitestream(env)
      replicaEnv = env
      await lagOf(await writePost())
    },
    4 * REPLICATION_DEADLINE_MS,
  )

  test(
    'supervised: `litestream.sh replicate npm start` runs Folio, and a stop syncs the last write before both exit',
    async () => {
      const env = {
        ...replicaEnv,
        DATA_DIR: join(root, 'supervised'),
        CACHE_DIR: join(root, 'supervised-cache'),
        REPLICA_S3_PATH: 'supervised/folio.db',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
      }
      const supervised = startLitestream(env, [process.execPath, join(ROOT, 'src/main.ts')])
      try {
        await until('Folio listening under Litestream', REPLICATION_DEADLINE_MS, () =>
          supervised.output().includes('"message":"listening"'),
        )
        // Litestream opens the database at its first look, a second after it starts; a stop before
        // that syncs nothing (docs/beyond-one-box.md). Once the replica holds the database, it does.
        await until('Litestream replicating the new database', REPLICATION_DEADLINE_MS, async () => Boolean(await replicatedSlugs(env)))
        // A write acknowledged just before the stop: the CLI creates a token in the same database.
        const cli = Bun.spawn(
          [process.execPath, join(ROOT, 'src/cli.ts'), 'token', 'create', '--name', 'written-before-stop', '--scopes', 'blog:read'],
          {
            env,
            stdout: 'pipe',
            stderr: 'pipe',
          },
        )
        expect(await cli.exited).toBe(0)
      } finally {
        await supervised.stop()
      }
      expect(await supervised.exited).toBe(0)
      expect(supervised.output()).toContain('"message":"stopping"')
      const file = join(root, 'supervised-restored.db')
      const restored = await restoreReplica(env, file)
      expect(restored.code, restored.stderr).toBe(0)
      const db = new Database(file, { readonly: true })
      expect(db.query("SELECT count(*) AS n FROM api_tokens WHERE name = 'written-before-stop'").get()).toEqual({ n: 1 })
      db.close()
    },
    2 * REPLICATION_DEADLINE_MS,
  )
})
