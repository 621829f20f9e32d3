import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { ArtifactBucket } from './bucket.ts'
import type { BucketLayout, MirrorCount } from './objects.ts'

/** A follower's object is empty, as its file is: the name says everything (redirects/layout.ts). */
export const FOLLOWER_BYTES = new Uint8Array(0)
export const FOLLOWER_HEADERS = { 'Content-Type': 'application/octet-stream' }
/** Puts in flight at once for one folder (a shard of a large import holds hundreds of names). */
const CONCURRENCY = 16

/** The keys of the files now in a main file's followers folder (the kinds' `followers`): none without one. */
export function followerKeys(cacheDir: string, { prefix, kinds }: BucketLayout, path: string): string[] {
  const folder = kinds.followers(path)
  return folder ? keysIn(cacheDir, prefix, folder) : []
}

/** The keys of the files in one followers folder of CACHE_DIR; none when it is missing. */
function keysIn(cacheDir: string, prefix: string, folder: string): string[] {
  try {
    return readdirSync(join(cacheDir, folder), { withFileTypes: true }).flatMap((entry) =>
      entry.isFile() ? [`${prefix}${folder}/${entry.name}`] : [],
    )
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** Puts these keys as followers' empty objects, a few at a time. */
export async function putFollowers(bucket: ArtifactBucket, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += CONCURRENCY)
    await Promise.all(keys.slice(i, i + CONCURRENCY).map((key) => bucket.put(key, FOLLOWER_BYTES, FOLLOWER_HEADERS)))
}

/**
 * Brings the objects of the files that follow one main file in line with CACHE_DIR (the redirect
 * files of a shard's index): each file's name is put as an empty object, each object without a
 * file is deleted; with the main file gone (`present` false), every one goes. A listing of the
 * folder's keys says which are there already, so a shard whose names did not change puts nothing.
 */
export async function mirrorFollowers(
  bucket: ArtifactBucket,
  cacheDir: string,
  layout: BucketLayout,
  path: string,
  present: boolean,
): Promise<MirrorCount> {
  const folder = layout.kinds.followers(path)
  if (!folder) return { put: 0, deleted: 0 }
  const wanted = new Set(present ? keysIn(cacheDir, layout.prefix, folder) : [])
  const listed = new Set((await bucket.list(`${folder}/`)).map((object) => object.key))
  const missing = [...wanted].filter((key) => !listed.has(key))
  await putFollowers(bucket, missing)
  const gone = [...listed].filter((key) => !wanted.has(key))
  await bucket.remove(gone)
  return { put: missing.length, deleted: gone.length }
}
