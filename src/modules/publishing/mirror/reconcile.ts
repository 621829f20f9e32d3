import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { Queryable } from '../../../db/client.ts'
import { ABSENT, manifest } from '../jobs.ts'
import type { ArtifactBucket } from './bucket.ts'
import { copiesOf } from '../copies-rule.ts'
import { FOLLOWER_BYTES, followerKeys, putFollowers } from './followers.ts'
import { objectsOf, type BucketLayout } from './objects.ts'
import { readIfPresent } from './upload.ts'

export interface ReconcileSummary {
  put: number
  deleted: number
  unchanged: number
}

/** Artifacts compared at once: each is a few small files, so memory stays small on any site. */
const CONCURRENCY = 8

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex')
const EMPTY_MD5 = md5(FOLLOWER_BYTES)

/**
 * `cli rebuild --target s3`: brings the bucket in line with the artifacts the database's manifest
 * lists (and CACHE_DIR holds, after the disk rebuild that runs first). It lists the prefix once;
 * an object whose ETag is the MD5 of the file's bytes (what a plain put gives) is left alone,
 * one that differs or is missing is put (the files that follow an artifact too: followers.ts), and
 * anything else under the prefix is deleted. An ETag
 * says nothing of an object's headers: `force` (`rebuild --force --target s3`) puts every object
 * again, with the headers of the current settings (after a change of `CDN_*`, say).
 */
export async function reconcileBucket(
  db: Queryable,
  bucket: ArtifactBucket,
  cacheDir: string,
  layout: BucketLayout,
  force = false,
): Promise<ReconcileSummary> {
  const listed = new Map((await bucket.list()).map((o) => [o.key, o.etag]))
  const kept = new Set<string>()
  const summary: ReconcileSummary = { put: 0, deleted: 0, unchanged: 0 }
  // Artifacts that render to nothing are remembered with the ABSENT hash: no object of theirs belongs in the bucket.
  const paths = [...manifest(db)].filter(([, hash]) => hash !== ABSENT).map(([path]) => path)
  /** Followers' objects whose files stand but which are missing (or, with `force`, all of them). */
  const followersToPut: string[] = []
  async function compare(path: string): Promise<void> {
    const files = new Map<string, { bytes: Uint8Array; md5: string } | null>()
    const read = (file: string) => {
      if (!files.has(file)) {
        const bytes = readIfPresent(join(cacheDir, file))
        files.set(file, bytes && { bytes, md5: md5(bytes) })
      }
      return files.get(file)!
    }
    const main = read(path)
    if (!main) return
    // Only the copies the rule gives it (copies-rule.ts): other copies' objects are strays.
    const copies = new Set(copiesOf(path, main.bytes.length).map((ext) => path + ext))
    for (const object of objectsOf(path, layout)) {
      const file = object.file === path || copies.has(object.file) ? read(object.file) : null
      if (!file) continue
      kept.add(object.key)
      if (!force && listed.get(object.key) === file.md5) summary.unchanged++
      else {
        await bucket.put(object.key, file.bytes, object.headers)
        summary.put++
      }
    }
    for (const key of followerKeys(cacheDir, layout, path)) {
      kept.add(key)
      if (!force && listed.get(key) === EMPTY_MD5) summary.unchanged++
      else followersToPut.push(key)
    }
  }
  for (let i = 0; i < paths.length; i += CONCURRENCY) await Promise.all(paths.slice(i, i + CONCURRENCY).map(compare))
  await putFollowers(bucket, followersToPut)
  summary.put += followersToPut.length
  const stray = [...listed.keys()].filter((key) => !kept.has(key))
  await bucket.remove(stray)
  summary.deleted = stray.length
  return summary
}
