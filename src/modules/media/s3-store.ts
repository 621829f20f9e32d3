import { Client } from 'minio'
import { assertValidMediaKey, isValidMediaKey } from './keys.ts'
import type { MediaStore } from './store.ts'

export interface S3StoreOptions {
  /** `S3_ENDPOINT`: the store's base URL, e.g. `http://127.0.0.1:9000` or `https://s3.example.com`. */
  endpoint: string
  accessKey: string
  secretKey: string
  bucket: string
  /** `S3_REGION`; MinIO's default is us-east-1. */
  region?: string | undefined
}

export interface S3MediaStore extends MediaStore {
  readonly bucket: string
  /** The anonymous URL of a key straight from the store: `<endpoint>/<bucket>/<key>`. */
  objectUrl(key: string): string
}

/** Anonymous read of objects only: no listing of the bucket, no writes. */
export function publicReadPolicy(bucket: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { AWS: ['*'] },
        Action: ['s3:GetObject'],
        Resource: [`arn:aws:s3:::${bucket}/*`],
      },
    ],
  })
}

/**
 * Connect, create the bucket when it is missing and make its objects publicly readable, so
 * that `MEDIA_URL/<key>` (MEDIA_URL = `<endpoint>/<bucket>` or a CDN in front of it) works
 * without signing. Call once at start-up.
 */
export async function createS3MediaStore(options: S3StoreOptions): Promise<S3MediaStore> {
  const url = new URL(options.endpoint)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`S3_ENDPOINT must be an http(s) URL, got ${options.endpoint}`)
  }
  const useSSL = url.protocol === 'https:'
  const region = options.region || 'us-east-1'
  const client = new Client({
    endPoint: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region,
    pathStyle: true,
  })
  const { bucket } = options

  if (!(await client.bucketExists(bucket))) {
    try {
      await client.makeBucket(bucket, region)
    } catch (error) {
      // Another process of ours may have created it in between; that is fine.
      if (errorCode(error) !== 'BucketAlreadyOwnedByYou') throw error
    }
  }
  await client.setBucketPolicy(bucket, publicReadPolicy(bucket))

  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`

  return {
    bucket,

    objectUrl: (key) => `${base}/${bucket}/${assertValidMediaKey(key)}`,

    async put(key, bytes, contentType) {
      assertValidMediaKey(key)
      const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      await client.putObject(bucket, key, body, body.byteLength, {
        'Content-Type': contentType,
        // Keys are content hashes: the object under a key never changes.
        'Cache-Control': 'public, max-age=31536000, immutable',
      })
    },

    async exists(key) {
      if (!isValidMediaKey(key)) return false
      try {
        await client.statObject(bucket, key)
        return true
      } catch (error) {
        const code = errorCode(error)
        if (code === 'NotFound' || code === 'NoSuchKey') return false
        throw error
      }
    },
  }
}

const errorCode = (error: unknown): unknown => (typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined)
