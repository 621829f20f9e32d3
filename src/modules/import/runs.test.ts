import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { migratedTempDb } from '../../../test/support/temp-db.ts'
import { loadConfig } from '../../config.ts'
import { importRuns } from '../../db/schema/index.ts'
import { createLogger } from '../../shared/log.ts'
import type { ImportService } from './execute.ts'
import { importRunner } from './runs.ts'

const { db, dir, dispose } = migratedTempDb('folio-import-runs-')
afterAll(dispose)

test('a run a stopped server left running is said interrupted at the next start; none starts beside a running one', async () => {
  // Only the database, configuration and log are reached here: no run is executed.
  const service = { ctx: { db, config: loadConfig({ DATA_DIR: dir }), log: createLogger('error') } } as unknown as ImportService
  const options = { language: 'auto', status: 'keep', media: 'keep', dryRun: false } as const
  const left = db
    .insert(importRuns)
    .values({ format: 'wordpress', fileName: 'old.xml', options: JSON.stringify(options), state: 'running', startedBy: 'Olive' })
    .returning()
    .get()
  // The upload it was reading when the server stopped.
  mkdirSync(join(dir, 'imports', String(left.id)), { recursive: true })
  writeFileSync(join(dir, 'imports', String(left.id), 'source.xml'), '<rss/>')

  const beforeStart = importRunner(service)
  const refusal = (() => {
    try {
      beforeStart.start('ghost', 'x.json', new Uint8Array(), options, 'Olive')
    } catch (error) {
      return error
    }
  })()
  expect(refusal).toMatchObject({ code: 'IMPORT_RUNNING', status: 409 })
  expect(() => beforeStart.start('ghost', 'x.json', new Uint8Array(), { ...options, media: 'fetch', dryRun: true }, 'Olive')).toThrow(
    'media: fetch writes to the media store',
  )

  const runner = importRunner(service)
  expect(runner.recover()).toBe(1)
  expect(runner.get(left.id)).toMatchObject({ state: 'interrupted', fileName: 'old.xml', startedBy: 'Olive', report: null })
  expect(runner.get(left.id).error).toContain('the server stopped during this import')
  expect(existsSync(join(dir, 'imports'))).toBe(false)
  expect(runner.list().map((r) => r.id)).toEqual([left.id])
  expect(() => runner.get(left.id + 1)).toThrow('No import')
})
