import type { Client } from 'minio'

/** What an S3 client needs: the media store (`S3_*`) and the artifact mirror (`ARTIFACTS_S3_*`) alike. */
export interface S3Connection {
  /** The store's base URL, e.g. `http://127.0.0.1:9000` or `https://s3.example.com`. */
  endpoint: string
  accessKey: string
  secretKey: string
  /** MinIO's default is us-east-1. */
  region?: string | undefined
}

/**
 * A client for an S3-compatible store (MinIO, AWS, R2...), bucket in the URL path as MinIO wants.
 * The MinIO SDK (some 60 modules with xml2js and lodash) loads with the first client, so a Folio
 * without S3 never loads it (docs/benchmarks.md, "CLI start").
 */
export function s3Client(options: S3Connection): Client {
  const { Client } = import.meta.require('minio') as typeof import('minio')
  const url = new URL(options.endpoint)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`expected an http(s) S3 endpoint, got ${options.endpoint}`)
  const useSSL = url.protocol === 'https:'
  return new Client({
    endPoint: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region || 'us-east-1',
    pathStyle: true,
  })
}

/** Creates the bucket when it is missing; another process creating it at the same moment is fine. */
export async function ensureBucket(client: Client, bucket: string, region: string | undefined): Promise<void> {
  if (await client.bucketExists(bucket)) return
  try {
    await client.makeBucket(bucket, region || 'us-east-1')
  } catch (error) {
    if (s3ErrorCode(error) !== 'BucketAlreadyOwnedByYou') throw error
  }
}

export const s3ErrorCode = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
