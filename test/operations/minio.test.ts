import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { PROBE_KEY } from '../../src/operations/media-check.ts'
import { startFolio } from '../support/folio.ts'
import { png } from '../media/fixtures.ts'
import { MINIO_SETUP_TIMEOUT_MS, startMinio, type RunningMinio } from '../support/minio.ts'
import { WAIT_LIMIT_MS } from '../support/until.ts'

const ROOT = resolve(import.meta.dir, '../..')
let minio: RunningMinio
beforeAll(async () => {
  minio = await startMinio()
}, MINIO_SETUP_TIMEOUT_MS)
afterAll(() => minio?.stop())

/** The complete MEDIA_STORE=s3 environment of docs/media.md, on this MinIO. */
const s3 = (bucket: string, mediaUrl = `${minio.endpoint}/${bucket}`) => ({
  MEDIA_STORE: 's3',
  S3_ENDPOINT: minio.endpoint,
  S3_ACCESS_KEY: minio.accessKey,
  S3_SECRET_KEY: minio.secretKey,
  S3_BUCKET: bucket,
  S3_REGION: 'us-east-1',
  MEDIA_URL: mediaUrl,
})

describe('MEDIA_STORE=s3 on a real MinIO: the start-up check of MEDIA_URL', () => {
  test('a MEDIA_URL that serves the bucket passes, and the probe object is there', async () => {
    const folio = await startFolio(s3('folio-check-ok'))
    try {
      const probe = await fetch(`${minio.endpoint}/folio-check-ok/${PROBE_KEY}`)
      expect(probe.status).toBe(200)
      expect(probe.headers.get('content-type')).toBe('image/png')
    } finally {
      await folio.dispose()
    }
  })

  test('a MEDIA_URL that does not serve the uploads stops the start with one line', async () => {
    // The path of a bucket that does not exist: MinIO refuses anonymous reads there (403).
    const scratch = mkdtempSync(join(tmpdir(), 'folio-media-check-'))
    const env = { ...s3('folio-check-bad', `${minio.endpoint}/somewhere-else`), HOST: '127.0.0.1', PORT: '0', PATH: process.env.PATH ?? '' }
    const child = Bun.spawn([process.execPath, join(ROOT, 'src/main.ts')], {
      cwd: ROOT,
      env: { ...env, DATA_DIR: join(scratch, 'data'), CACHE_DIR: join(scratch, 'cache') },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), WAIT_LIMIT_MS)
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
    clearTimeout(timer)
    rmSync(scratch, { recursive: true, force: true })
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^folio: MEDIA_URL ${minio.endpoint}/somewhere-else does not serve the objects written to bucket "folio-check-bad": GET .* answered HTTP 403`,
        ),
      ),
    ])
  })

  test('MEDIA_URL_CHECK=warn starts anyway and logs the problem at error level', async () => {
    const folio = await startFolio({ ...s3('folio-check-warn', `${minio.endpoint}/somewhere-else`), MEDIA_URL_CHECK: 'warn' })
    try {
      const line = folio.logs().find((e) => e.message === 'media url check failed')
      expect(line).toMatchObject({ level: 'error', problem: expect.stringContaining('does not serve the objects') })
    } finally {
      await folio.dispose()
    }
  })
})

describe('MEDIA_STORE=s3: backup and the Folio archive (docs/import-export.md)', () => {
  // One server for both: a backup leaves the media in the bucket, the archive carries them.
  test('a backup says the media stay in the bucket; export --format folio carries them, import folio puts them in another', async () => {
    const bytes = png([9, 8, 7])
    const archive = join(mkdtempSync(join(tmpdir(), 'folio-s3-archive-')), 'site.tar.gz')
    const from = await startFolio(s3('folio-archive-from'))
    let key = ''
    try {
      const backup = await from.cli('backup', join(from.dataDir, '..', 'b.tar.gz'))
      expect(backup.code).toBe(0)
      expect(backup.stdout).toContain(`no media: they live in the S3 bucket "folio-archive-from" at ${minio.endpoint}`)
      const form = new FormData()
      form.append('file', new File([bytes], 'a.png'))
      const token = await from.token('blog:write')
      const upload = await from.call('POST', '/api/v1/blog/media/upload', { token, body: form })
      expect(upload.status).toBe(200)
      key = new URL(upload.body.data as string).pathname.replace(/^\/folio-archive-from\//, '')
      const out = await from.cli('export', archive, '--format', 'folio')
      expect(out.stderr).toBe('')
      expect(out.stdout).toContain('1 media files')
      // The Markdown folder takes them out of the bucket as well, under static/media/.
      const folder = join(archive, '..', 'md')
      expect((await from.cli('export', folder, '--format', 'markdown')).stdout).toContain('1 media files')
      expect(new Uint8Array(readFileSync(join(folder, 'static', 'media', key)))).toEqual(bytes)
    } finally {
      await from.dispose()
    }
    // Into an empty DATA_DIR and another bucket by the CLI alone (no server needed for it).
    const base = mkdtempSync(join(tmpdir(), 'folio-s3-import-'))
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: join(base, 'data'), CACHE_DIR: join(base, 'cache') }
    const cli = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), 'import', 'folio', archive], {
      cwd: ROOT,
      env: { ...env, ...s3('folio-archive-to') },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const [stdout, stderr] = await Promise.all([new Response(cli.stdout).text(), new Response(cli.stderr).text(), cli.exited])
    expect(stderr).toBe('')
    expect(stdout).toContain('1 media files')
    const served = await fetch(`${minio.endpoint}/folio-archive-to/${key}`)
    expect(served.status).toBe(200)
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
    rmSync(base, { recursive: true, force: true })
  }, 60_000)
})
