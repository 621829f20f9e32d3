import { expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hasArtifacts } from './upkeep.ts'

test('a cache with artifacts: a non-empty top folder or a root file (the home page `@`); empty folders are none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-upkeep-'))
  try {
    const tops = ['api', 'en', '@']
    expect(hasArtifacts(dir, tops)).toBe(false)
    mkdirSync(join(dir, 'api'))
    expect(hasArtifacts(dir, tops)).toBe(false)
    writeFileSync(join(dir, '@'), '<!doctype html>')
    expect(hasArtifacts(dir, tops)).toBe(true)
    rmSync(join(dir, '@'))
    mkdirSync(join(dir, 'en'))
    writeFileSync(join(dir, 'en', '@'), '<!doctype html>')
    expect(hasArtifacts(dir, tops)).toBe(true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
