import { gzipSync } from 'node:zlib'
import { buildConsole } from '../src/modules/console/bundle.ts'

// The admin console's weight (docs/benchmarks.md, "Admin console"): the script and stylesheet Bun
// bundles at start, in bytes and gzipped, beside preact's own runtime bundled alone in the same
// run (the baseline), and the time the build adds to a start. The editor's part: its page bundled
// alone (preact left out), with everything it pulls in, the console's shared modules included.
const started = performance.now()
const bundle = await buildConsole()
const buildMs = performance.now() - started
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
const editor = await Bun.build({
  entrypoints: [new URL('../src/modules/console/app/pages/editor.tsx', import.meta.url).pathname],
  target: 'browser',
  minify: true,
  external: ['preact', 'preact/*'],
})
row('editor page (in script)', new Uint8Array(await editor.outputs[0]!.arrayBuffer()))
console.log(`build at start: ${buildMs.toFixed(0)} ms`)
