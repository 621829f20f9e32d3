import type { Config } from '../../../config.ts'
import type { Db } from '../../../db/client.ts'
import type { Logger } from '../../../shared/log.ts'
import type { Clock } from '../../../shared/time.ts'
import type { ArtifactChange } from '../publisher.ts'
import { artifactCacheControl } from '../cdn-cache.ts'
import type { BucketLayout } from './objects.ts'
import { createArtifactBucket } from './bucket.ts'
import { recordMirrorJobs } from './outbox.ts'
import { reconcileBucket } from './reconcile.ts'
import { createMirrorWorker } from './worker.ts'

/**
 * The artifact mirror (`PUBLISH_TARGETS=disk,s3`): every artifact a render pass writes or removes
 * in CACHE_DIR is put into or deleted from an S3 bucket, from a durable outbox recorded in the
 * pass's own closing write. Null when the bucket is not a publish target. `kinds`: the registered
 * artifact kinds, which say what headers each file's objects carry.
 */
export function createArtifactMirror(config: Config, db: Db, log: Logger, clock: Clock, kinds: BucketLayout['kinds']) {
  if (!config.publishTargets.includes('s3')) return null
  const { prefix } = config.artifactsS3
  const layout = { prefix, cacheControl: artifactCacheControl(config.cdn), kinds }
  const bucket = createArtifactBucket(config.artifactsS3)
  const worker = createMirrorWorker({ db, bucket, cacheDir: config.cacheDir, layout, log, clock })
  return {
    /** The publisher's hook, inside the write that finishes its jobs. */
    artifactsChanged(changes: readonly ArtifactChange[]): void {
      if (!changes.length) return
      recordMirrorJobs(db.$client, changes, clock().getTime())
      worker.wake()
    },
    worker,
    /** Where the bucket is, for a summary line: `s3://bucket/prefix`. */
    location: `s3://${config.artifactsS3.bucket}/${prefix}`,
    /** `rebuild --target s3`; `force` puts every object again, headers included. */
    reconcile: (force = false) => reconcileBucket(db, bucket, config.cacheDir, layout, force),
  }
}
