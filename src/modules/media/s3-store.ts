import { ensureBucket, s3Client, s3ErrorCode, type S3Connection } from '../../shared/s3.ts'
import { assertValidMediaKey, isValidMediaKey } from './keys.ts'
import type { MediaStore } from './store.ts'

export interface S3StoreOptions extends S3Connection {
  bucket: string
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
  const client = s3Client(options)
  const { bucket } = options
  await ensureBucket(client, bucket, options.region)
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

    async read(key) {
      if (!isValidMediaKey(key)) return undefined
      try {
        const chunks: Buffer[] = await Array.fromAsync(await client.getObject(bucket, key))
        return new Uint8Array(Buffer.concat(chunks))
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },

    async exists(key) {
      if (!isValidMediaKey(key)) return false
      try {
        await client.statObject(bucket, key)
        return true
      } catch (error) {
        if (isMissing(error)) return false
        throw error
      }
    },
  }
}

const isMissing = (error: unknown): boolean => {
  const code = s3ErrorCode(error)
  return code === 'NotFound' || code === 'NoSuchKey'
}
