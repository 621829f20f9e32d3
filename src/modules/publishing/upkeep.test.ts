import { expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hasArtifacts } from './upkeep.ts'

test('a cache with artifacts: a non-empty top folder; an empty folder or a lone root file (`@`) is none, and never read as a folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folio-upkeep-'))
  try {
    const tops = ['api', 'en', '@']
    expect(hasArtifacts(dir, tops)).toBe(false)
    mkdirSync(join(dir, 'api'))
    expect(hasArtifacts(dir, tops)).toBe(false)
    writeFileSync(join(dir, '@'), '<!doctype html>')
    expect(hasArtifacts(dir, tops)).toBe(false)
    mkdirSync(join(dir, 'en'))
    writeFileSync(join(dir, 'en', '@'), '<!doctype html>')
    expect(hasArtifacts(dir, tops)).toBe(true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
