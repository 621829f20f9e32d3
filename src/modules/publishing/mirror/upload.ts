import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ArtifactBucket } from './bucket.ts'
import { copiesOf } from '../copies-rule.ts'
import { mirrorFollowers } from './followers.ts'
import { objectsOf, type BucketLayout, type MirrorCount } from './objects.ts'

export const readIfPresent = (file: string): Uint8Array | null => {
  try {
    return readFileSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/**
 * Brings one artifact's objects in line with CACHE_DIR as it is now: with its main file there,
 * each object whose file is there is put (main objects first, as the disk writer renames the main
 * file in before its copies) and the others deleted (the objects of copies the rule does not give
 * it among them); without it (`delete`, or removed since the
 * `put` was recorded), every object goes. The files that follow it (followers.ts) follow it into
 * the bucket too. A version written meanwhile has a newer job of its own.
 */
export async function mirrorArtifact(
  bucket: ArtifactBucket,
  cacheDir: string,
  layout: BucketLayout,
  path: string,
  op: 'put' | 'delete',
): Promise<MirrorCount> {
  const objects = objectsOf(path, layout)
  const main = op === 'put' ? readIfPresent(join(cacheDir, path)) : null
  const bytes = new Map<string, Uint8Array | null>([[path, main]])
  // Only the copies the rule gives it are read (copies-rule.ts): the others' objects go, as a shrunk
  // version's must, and a `.br` of the API's JSON an older release put.
  for (const ext of main ? copiesOf(path, main.length) : []) bytes.set(path + ext, readIfPresent(join(cacheDir, path + ext)))
  const present = objects.filter((o) => bytes.get(o.file))
  const mains = present.filter((o) => o.file === path)
  await Promise.all(mains.map((o) => bucket.put(o.key, bytes.get(o.file)!, o.headers)))
  await Promise.all(present.filter((o) => o.file !== path).map((o) => bucket.put(o.key, bytes.get(o.file)!, o.headers)))
  const gone = objects.filter((o) => !bytes.get(o.file)).map((o) => o.key)
  await bucket.remove(gone)
  // The files that follow it on disk (a shard's redirect files), after it, as the disk has them now.
  const followers = await mirrorFollowers(bucket, cacheDir, layout, path, main !== null)
  return { put: present.length + followers.put, deleted: gone.length + followers.deleted }
}
