import { describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config.ts'

const bucket = {
  PUBLISH_TARGETS: 'disk,s3',
  ARTIFACTS_S3_ENDPOINT: 'http://127.0.0.1:9000',
  ARTIFACTS_S3_ACCESS_KEY: 'key',
  ARTIFACTS_S3_SECRET_KEY: 'secret',
}

describe('PUBLISH_TARGETS and ARTIFACTS_S3_* settings', () => {
  test('disk alone by default; the bucket settings are then not required', () => {
    const config = loadConfig({})
    expect(config.publishTargets).toEqual(['disk'])
    expect(config.artifactsS3).toMatchObject({ bucket: 'folio-artifacts', region: 'us-east-1', prefix: '' })
  })

  test('disk,s3 (in any order, spaces allowed) with the bucket settings; a prefix gets its trailing slash', () => {
    const config = loadConfig({ ...bucket, PUBLISH_TARGETS: ' s3 , disk', ARTIFACTS_S3_BUCKET: 'my-site', ARTIFACTS_S3_PREFIX: 'www/blog' })
    expect(config.publishTargets).toEqual(['disk', 's3'])
    expect(config.artifactsS3).toEqual({ ...config.artifactsS3, endpoint: 'http://127.0.0.1:9000', bucket: 'my-site', prefix: 'www/blog/' })
  })

  test.each([
    [{ PUBLISH_TARGETS: 's3' }, 'PUBLISH_TARGETS: expected disk or disk,s3, got "s3"'],
    [{ PUBLISH_TARGETS: 'disk,ftp' }, 'PUBLISH_TARGETS: expected disk or disk,s3, got "disk,ftp"'],
    [{ ARTIFACTS_S3_ENDPOINT: '' }, 'ARTIFACTS_S3_ENDPOINT: required when PUBLISH_TARGETS includes s3'],
    [{ ARTIFACTS_S3_SECRET_KEY: '' }, 'ARTIFACTS_S3_SECRET_KEY: required when PUBLISH_TARGETS includes s3'],
    [{ ARTIFACTS_S3_ENDPOINT: 'ftp://store' }, 'ARTIFACTS_S3_ENDPOINT: expected an http(s) URL, got "ftp://store"'],
    [{ ARTIFACTS_S3_BUCKET: 'Bad_Bucket' }, 'ARTIFACTS_S3_BUCKET: expected an S3 bucket name, got "Bad_Bucket"'],
    [{ ARTIFACTS_S3_PREFIX: '../up' }, 'ARTIFACTS_S3_PREFIX: expected path segments'],
    [{ ARTIFACTS_S3_PREFIX: 'a b' }, 'ARTIFACTS_S3_PREFIX: expected path segments'],
  ])('%o is refused naming the variable', (change, message) => {
    expect(() => loadConfig({ ...bucket, ...change })).toThrow(message)
  })

  test('media keeps its own S3_* settings, checked the same way only with MEDIA_STORE=s3', () => {
    expect(() => loadConfig({ MEDIA_STORE: 's3' })).toThrow('S3_ENDPOINT: required when MEDIA_STORE=s3')
    expect(loadConfig({ S3_BUCKET: 'Anything_Goes' }).s3.bucket).toBe('Anything_Goes')
  })
})
