import type { S3Settings } from '../../../config.ts'
import { ensureBucket, s3Client } from '../../../shared/s3.ts'

/** A listed object: its key and its ETag (the MD5 of its bytes for a plain single-part put). */
export interface ListedObject {
  key: string
  etag: string
}

/** The artifact mirror's side effects on the store, behind a small port. */
export interface ArtifactBucket {
  put(key: string, bytes: Uint8Array, headers: Record<string, string>): Promise<void>
  remove(keys: readonly string[]): Promise<void>
  /** Every object under the prefix, or under `under` inside it (`_moved/@lo/`). */
  list(under?: string): Promise<ListedObject[]>
}

/**
 * The bucket on an S3-compatible store. It is created on first use when missing (never at start:
 * a store that is down must not stop the API; the jobs wait for it). No policy is set: grant the
 * CDN or the syncing boxes read access as docs/beyond-one-box.md shows.
 */
export function createArtifactBucket(settings: S3Settings & { prefix: string }): ArtifactBucket {
  const client = s3Client(settings)
  const { bucket } = settings
  let ready: Promise<void> | null = null
  const exists = () => {
    ready ??= ensureBucket(client, bucket, settings.region).catch((error) => {
      ready = null
      throw error
    })
    return ready
  }
  return {
    async put(key, bytes, headers) {
      await exists()
      const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      await client.putObject(bucket, key, body, body.byteLength, headers)
    },
    async remove(keys) {
      if (!keys.length) return
      await exists()
      // One request per 1,000 keys, answering only the keys it could not delete (a missing key counts as deleted).
      const failed = (await client.removeObjects(bucket, [...keys])).flat().filter(Boolean)
      if (failed.length) throw new Error(`could not delete ${failed.length} object(s): ${JSON.stringify(failed[0])}`)
    },
    async list(under = '') {
      await exists()
      const found: ListedObject[] = []
      for await (const item of client.listObjectsV2(bucket, settings.prefix + under, true))
        if (item.name) found.push({ key: item.name, etag: (item.etag ?? '').replace(/"/g, '') })
      return found
    },
  }
}
