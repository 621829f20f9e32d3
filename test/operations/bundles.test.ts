import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundleFiles } from '../../src/shared/bundle-files.ts'

const root = mkdtempSync(join(tmpdir(), 'folio-bundles-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

test('a browser bundle is built once, served from its files while its sources stay the same, built again when one changes', async () => {
  const entry = join(root, 'entry.ts')
  const shared = join(root, 'shared.ts')
  writeFileSync(shared, "export const greeting = 'hello'\n")
  writeFileSync(entry, "import { greeting } from './shared.ts'\ndocument.title = greeting\n")
  const folder = join(root, 'cache', '.folio-bundles', 'demo')
  const script = (outputs: { file: string; kind: string; bytes: Uint8Array }[]) =>
    new TextDecoder().decode(outputs.find((o) => o.kind === 'entry-point')!.bytes)

  const first = await bundleFiles(folder, [entry], false)
  expect(script(first)).toContain('hello')
  const record = join(folder, 'inputs.json')
  const builtAt = statSync(record).mtimeMs
  // A restart: the same files, read back, no build.
  const again = await bundleFiles(folder, [entry], false)
  expect(again.map((o) => [o.file, o.kind])).toEqual(first.map((o) => [o.file, o.kind]))
  expect(script(again)).toBe(script(first))
  expect(statSync(record).mtimeMs).toBe(builtAt)
  // A source the entry imports changed: built again from it.
  writeFileSync(shared, "export const greeting = 'bonjour'\n")
  expect(script(await bundleFiles(folder, [entry], false))).toContain('bonjour')
  // A build that fails says so, and leaves the last good bundle alone.
  writeFileSync(shared, 'export const greeting = (\n')
  const good = statSync(record).mtimeMs
  await expect(bundleFiles(folder, [entry], false)).rejects.toThrow(/did not build/)
  expect(statSync(record).mtimeMs).toBe(good)
})
