import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { consoleBundle } from '../src/modules/console/bundle.ts'

// The admin console's weight (docs/benchmarks.md, "Admin console"): the script and stylesheet Bun
// bundles at the first console request, in bytes and gzipped, beside preact's own runtime bundled
// alone in the same run (the baseline), and the time the build (its own process) adds to that request.
const cacheDir = mkdtempSync(join(tmpdir(), 'folio-console-bench-'))
const started = performance.now()
const bundle = await consoleBundle(cacheDir)()
const buildMs = performance.now() - started
rmSync(cacheDir, { recursive: true, force: true })
const preact = await Bun.build({ entrypoints: [new URL('../node_modules/preact/dist/preact.mjs', import.meta.url).pathname], minify: true })
const baseline = new Uint8Array(await preact.outputs[0]!.arrayBuffer())
const row = (name: string, bytes: Uint8Array) => {
  const gzip = gzipSync(bytes).length
  console.log(
    `${name.padEnd(22)} ${String(bytes.length).padStart(7)} B  ${String(gzip).padStart(6)} B gzip  ${(bytes.length / baseline.length).toFixed(2)}× preact`,
  )
}
row('preact (baseline)', baseline)
row('console script', bundle.script.bytes)
row('console stylesheet', bundle.style.bytes)
// The chunks: code the script shares with what it loads on demand (imported at start), and the
// editor's body (CodeMirror 6), fetched only when a post's body is first shown.
for (const chunk of bundle.chunks) row(`chunk ${chunk.file.slice(6, 10)}`, chunk.bytes)
console.log(`build at the first console request: ${buildMs.toFixed(0)} ms`)
