import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The record a build leaves beside its outputs: what it read, so a later start knows whether it still holds. */
export const INPUTS_FILE = 'inputs.json'

export interface BundleRecord {
  bun: string
  /** Every source the build read (absolute path) and the hash of its bytes then. */
  inputs: Record<string, string>
  outputs: { file: string; kind: string }[]
}

/** One output of a build: its file name and kind (`entry-point`, `chunk`, `asset`) as Bun names them. */
export interface BundleOutput {
  file: string
  kind: string
  bytes: Uint8Array<ArrayBuffer>
}

export const sourceHash = (bytes: Uint8Array) => Bun.hash(bytes).toString(36)

const ENTRY = new URL('./bundle-main.ts', import.meta.url).pathname
/** The repository's root: the builder resolves the entry points' imports from it, as the server does. */
const ROOT = new URL('../..', import.meta.url).pathname

/** The record in `folder` if every source it names still has the bytes it was built from, by the same Bun. */
function current(folder: string): BundleRecord | null {
  const file = join(folder, INPUTS_FILE)
  if (!existsSync(file)) return null
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as BundleRecord
    if (record.bun !== Bun.version) return null
    for (const [path, hash] of Object.entries(record.inputs)) if (!existsSync(path) || sourceHash(readFileSync(path)) !== hash) return null
    return record
  } catch {
    return null // unreadable or half-written: built again
  }
}

/**
 * A browser bundle (minified) built once and kept as files in `folder`, keyed by the hash of every
 * source the build read: a restart serves it from there; a changed source, or another Bun, builds
 * it again. The build runs in a child Bun process (bundle-main.ts), so the bundler's memory never
 * stays in the caller's; it is written to a temp folder beside `folder` and renamed in whole.
 */
export async function bundleFiles(folder: string, entrypoints: string[], splitting: boolean): Promise<BundleOutput[]> {
  let record = current(folder)
  if (!record) {
    mkdirSync(dirname(folder), { recursive: true })
    const staging = mkdtempSync(`${folder}.tmp-`)
    try {
      const child = Bun.spawn([process.execPath, ENTRY, JSON.stringify({ outdir: staging, entrypoints, splitting })], {
        cwd: ROOT,
        stdout: 'ignore',
        stderr: 'pipe',
      })
      const [code, error] = await Promise.all([child.exited, new Response(child.stderr).text()])
      if (code !== 0) throw new Error(`the bundle ${folder} did not build: ${error.trim()}`)
      rmSync(folder, { recursive: true, force: true })
      renameSync(staging, folder)
    } finally {
      rmSync(staging, { recursive: true, force: true })
    }
    record = JSON.parse(readFileSync(join(folder, INPUTS_FILE), 'utf8')) as BundleRecord
  }
  return record.outputs.map(({ file, kind }) => ({ file, kind, bytes: new Uint8Array(readFileSync(join(folder, file))) }))
}
