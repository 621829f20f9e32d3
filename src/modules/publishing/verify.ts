import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { contentEtag } from '../../http/conditional.ts'
import { COPY_EXTENSIONS, type CopyExtension } from './copies-rule.ts'
import { ABSENT } from './jobs.ts'

/**
 * The integrity check of CACHE_DIR (docs/operations.md, "Faults"): a file's bytes against the hash
 * the manifest (`artifact_files`) recorded for it. A rename the manifest never heard of (a kill
 * between a pass's renames and its closing write), a truncated, emptied or overwritten file, a
 * copy that decompresses to other bytes: each is damage, which the caller repairs by forgetting
 * the hash and rendering the path again. Pure but for reading the files.
 */

/**
 * How each precompressed copy decompresses, by extension (writer.ts `SIDECARS` writes them). Every
 * copy that stands is checked, also one the rule no longer gives its artifact (a `.br` of the
 * API's JSON from an older release): Caddy serves it while it stands, and the rebuild removes it
 * as junk (disk-scan.ts `junkCopyNames`).
 */
const DECODERS: Record<CopyExtension, (bytes: Uint8Array) => Uint8Array> = {
  '.br': (bytes) => brotliDecompressSync(bytes),
  '.gz': (bytes) => gunzipSync(bytes),
}

const readOrNull = (file: string): Buffer | null => {
  try {
    return readFileSync(file)
  } catch {
    return null
  }
}

/**
 * Whether an artifact's files disagree with its recorded hash, and how many bytes that took to
 * say. An absent artifact (ABSENT) is damaged when a main file stands there; a present one when
 * its main file is missing or hashes otherwise, or a copy beside it does not decompress to the
 * same bytes. A missing copy is no damage: copies are left for later on purpose, an artifact
 * too small for copies (copies-rule.ts) has none, and the API's JSON and the Markdown twins no `.br`.
 */
function inspectArtifact(root: string, path: string, hash: string): { damaged: boolean; bytesRead: number } {
  const file = join(root, path)
  if (hash === ABSENT) return { damaged: existsSync(file), bytesRead: 0 }
  const bytes = readOrNull(file)
  if (!bytes || contentEtag(bytes) !== hash) return { damaged: true, bytesRead: bytes?.length ?? 0 }
  let bytesRead = bytes.length
  for (const ext of COPY_EXTENSIONS) {
    const copy = readOrNull(file + ext)
    if (!copy) continue
    bytesRead += copy.length
    try {
      if (!Buffer.from(DECODERS[ext](copy)).equals(bytes)) return { damaged: true, bytesRead }
    } catch {
      return { damaged: true, bytesRead }
    }
  }
  return { damaged: false, bytesRead }
}

/**
 * The damaged artifacts among `entries` (path to recorded hash). With `bytesPerSecond`, reading
 * is paced on the monotonic clock so a background check never takes the disk from the readers:
 * after each file it sleeps until its reads fit the budget. An aborted `signal` ends it early.
 */
export async function findDamaged(
  root: string,
  entries: Iterable<readonly [string, string]>,
  bytesPerSecond?: number,
  signal?: AbortSignal,
): Promise<{ checked: number; damaged: string[] }> {
  const started = performance.now()
  let read = 0
  let checked = 0
  const damaged: string[] = []
  for (const [path, hash] of entries) {
    if (signal?.aborted) break
    const seen = inspectArtifact(root, path, hash)
    checked++
    read += seen.bytesRead
    if (seen.damaged) damaged.push(path)
    if (bytesPerSecond) {
      const ahead = (read / bytesPerSecond) * 1000 - (performance.now() - started)
      if (ahead > 0) await Bun.sleep(ahead)
    }
  }
  return { checked, damaged }
}
