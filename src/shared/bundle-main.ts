// A browser bundle built in a process of its own (bundle-files.ts): the bundler's memory, tens of
// MB, leaves with it instead of staying in the server. Argument: the build as JSON ({ outdir,
// entrypoints, splitting }). Writes every output under `outdir` by its own name, and
// `inputs.json`: each source the build read (absolute path) with the hash of its bytes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { INPUTS_FILE, sourceHash, type BundleRecord } from './bundle-files.ts'

const { outdir, entrypoints, splitting } = JSON.parse(process.argv[2] ?? '{}') as {
  outdir: string
  entrypoints: string[]
  splitting: boolean
}
const built = await Bun.build({ entrypoints, target: 'browser', minify: true, splitting, metafile: true })
if (!built.success) {
  console.error(built.logs.map(String).join('; '))
  process.exit(1)
}
mkdirSync(outdir, { recursive: true })
const record: BundleRecord = { bun: Bun.version, inputs: {}, outputs: [] }
for (const output of built.outputs) {
  const file = basename(output.path)
  writeFileSync(join(outdir, file), new Uint8Array(await output.arrayBuffer()))
  record.outputs.push({ file, kind: output.kind })
}
for (const input of Object.keys(built.metafile?.inputs ?? {})) {
  const path = resolve(input)
  record.inputs[path] = sourceHash(readFileSync(path))
}
writeFileSync(join(outdir, INPUTS_FILE), JSON.stringify(record))
