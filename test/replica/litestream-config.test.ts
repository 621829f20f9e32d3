// scripts/litestream.sh's settings: the config it generates and the clear refusals of bad values.
import { describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { WAIT_LIMIT_MS } from '../support/until.ts'

const SCRIPT = resolve(import.meta.dir, '../../scripts/litestream.sh')
const valid = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR: '/srv/folio/data',
  REPLICA_S3_ENDPOINT: 'http://127.0.0.1:9000',
  REPLICA_S3_ACCESS_KEY: 'replicator',
  REPLICA_S3_SECRET_KEY: 'do-not-write-me-down',
}

async function config(env: Record<string, string>) {
  const proc = Bun.spawn(['bash', SCRIPT, 'config'], { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', timeout: WAIT_LIMIT_MS })
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  return { code, stdout, stderr }
}

describe('scripts/litestream.sh config', () => {
  test('replicates DATA_DIR/folio.db to the bucket, with the keys left for Litestream to expand', async () => {
    const out = await config(valid)
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toContain('  - path: /srv/folio/data/folio.db\n')
    for (const line of [
      'type: s3',
      'endpoint: http://127.0.0.1:9000',
      'bucket: folio-db',
      'path: folio.db',
      'force-path-style: true',
      'sync-interval: 1s',
    ])
      expect(out.stdout).toContain(`      ${line}\n`)
    expect(out.stdout).toContain('access-key-id: ${REPLICA_S3_ACCESS_KEY}')
    expect(out.stdout).toContain('secret-access-key: ${REPLICA_S3_SECRET_KEY}')
    expect(out.stdout).not.toContain('do-not-write-me-down')
  })

  test('a relative DATA_DIR becomes absolute; settings override the defaults', async () => {
    const out = await config({
      ...valid,
      DATA_DIR: 'data',
      REPLICA_S3_BUCKET: 'blog-backups',
      REPLICA_S3_PATH: 'prod/folio.db',
      REPLICA_SYNC_INTERVAL: '500ms',
    })
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toContain(`  - path: ${resolve('data')}/folio.db\n`)
    expect(out.stdout).toContain('      bucket: blog-backups\n')
    expect(out.stdout).toContain('      path: prod/folio.db\n')
    expect(out.stdout).toContain('      sync-interval: 500ms\n')
  })

  test('a missing or malformed setting stops it with one line naming the variable', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ REPLICA_S3_ENDPOINT: '' }, 'REPLICA_S3_ENDPOINT: required'],
      [{ REPLICA_S3_ENDPOINT: 'ftp://127.0.0.1' }, 'REPLICA_S3_ENDPOINT: expected an http(s) URL'],
      [{ REPLICA_S3_ENDPOINT: 'http://127.0.0.1:9000/\n  - path: /etc' }, 'REPLICA_S3_ENDPOINT: expected an http(s) URL'],
      [{ REPLICA_S3_SECRET_KEY: '' }, 'REPLICA_S3_SECRET_KEY: required'],
      [{ REPLICA_S3_BUCKET: 'Bad_Bucket' }, 'REPLICA_S3_BUCKET: expected an S3 bucket name'],
      [{ REPLICA_S3_PATH: '../folio.db x' }, 'REPLICA_S3_PATH: expected a key prefix'],
      [{ REPLICA_S3_FORCE_PATH_STYLE: 'yes' }, 'REPLICA_S3_FORCE_PATH_STYLE: expected true or false'],
      [{ REPLICA_SYNC_INTERVAL: 'soon' }, 'REPLICA_SYNC_INTERVAL: expected a duration'],
      [{ DATA_DIR: '/srv/${HOME}' }, 'DATA_DIR: expected a path without'],
    ]
    for (const [override, message] of cases) {
      const out = await config({ ...valid, ...override })
      expect(out.code).toBe(2)
      expect(out.stdout).toBe('')
      expect(out.stderr.trim().split('\n')).toHaveLength(1)
      expect(out.stderr).toContain(message)
    }
  })
})
