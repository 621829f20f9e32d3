import { expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { codeVersion, fingerprint } from './inputs.ts'

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'folio-code-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

test('the code version follows the sources and the locked dependencies, not the tests', () => {
  const base = { 'src/a.tsx': 'export const A = 1', 'src/a.test.ts': 'test', 'package-lock.json': '{"v":1}' }
  const version = codeVersion(tree(base))
  expect(codeVersion(tree({ ...base, 'src/a.test.ts': 'another test' }))).toBe(version)
  expect(codeVersion(tree({ ...base, 'src/a.tsx': 'export const A = 2' }))).not.toBe(version)
  expect(codeVersion(tree({ ...base, 'package-lock.json': '{"v":2}' }))).not.toBe(version)
  expect(codeVersion(tree({ ...base, 'src/b.ts': '' }))).not.toBe(version)
})

test('fingerprints tell values apart', () => {
  expect(fingerprint([{ title: 'a' }, [1]])).toBe(fingerprint([{ title: 'a' }, [1]]))
  expect(fingerprint([{ title: 'a' }, [1]])).not.toBe(fingerprint([{ title: 'a' }, [2]]))
})
