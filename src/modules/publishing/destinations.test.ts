import { COPIES_MIN_BYTES } from './copies-rule.ts'
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { createLogger } from '../../shared/log.ts'
import { createCopier } from './copies.ts'
import { createDestinations } from './destinations.ts'
import { createArtifactCache } from './memory.ts'

// A pass does not wait for its copies (pass.ts): a path is placed again only once its own copies
// are written, never behind another path's. On the real copies thread, with a hook that holds the
// copies of paths under `hold/` until the test releases them (test/fixtures/copies-thread-hooks.ts).
const root = mkdtempSync(join(tmpdir(), 'folio-destinations-'))
const copies = createCopier(
  root,
  createLogger('error', () => {}),
  {
    entry: new URL('../../../test/fixtures/copies-thread-hooks.ts', import.meta.url),
  },
)
afterAll(async () => {
  await copies.close()
  rmSync(root, { recursive: true, force: true })
})

const destinations = createDestinations({
  cacheDir: root,
  cache: createArtifactCache(root, () => ({ ok: {}, notModified: {} })),
  copies,
  now: () => Date.now(),
  // The throttle's clock stands still far past every span: copies are never held back by it.
  monotonic: (() => {
    let t = 0
    return () => (t += 60_000)
  })(),
})
// Past COPIES_MIN_BYTES, so each version has copies to wait for (copies-rule.ts).
const body = (text: string) => text.padEnd(COPIES_MIN_BYTES + 1, '.')
const place = (path: string, text: string) => destinations.place(path, Buffer.from(body(text)), text, undefined, () => {})
const settledSoFar = async (promise: Promise<unknown>) => Promise.race([promise.then(() => 'settled'), Bun.sleep(0).then(() => 'pending')])

describe('destinations', () => {
  test("a path waits for its own copies under way, never for another path's; the lock waits for all", async () => {
    destinations.beginPass(true)
    const held = await place('hold/a/@', 'first version')
    expect(held.outcome).toBe('written')
    const ownCopies = destinations.ready('hold/a/@')!
    expect(ownCopies).toBeDefined()
    // Another path is placed at once, while the held copies are under way.
    expect(destinations.ready('free/b/@')).toBeUndefined()
    expect((await place('free/b/@', 'another artifact')).outcome).toBe('written')
    expect(readFileSync(join(root, 'free/b/@'), 'utf8')).toBe(body('another artifact'))
    const drained = destinations.drained()
    expect(await settledSoFar(ownCopies)).toBe('pending')
    expect(await settledSoFar(drained)).toBe('pending')
    expect(existsSync(join(root, 'hold/a/@.br'))).toBe(false)

    mkdirSync(join(root, 'hold'), { recursive: true })
    writeFileSync(join(root, 'hold/release'), '')
    expect(await held.copying).toBe(true)
    await ownCopies
    await drained
    expect(destinations.ready('hold/a/@')).toBeUndefined()
    expect(brotliDecompressSync(readFileSync(join(root, 'hold/a/@.br'))).toString()).toBe(body('first version'))
    expect(brotliDecompressSync(readFileSync(join(root, 'free/b/@.br'))).toString()).toBe(body('another artifact'))
    // Placed again once its copies are in: the old copies go with the old bytes, the new ones follow.
    const again = await place('hold/a/@', 'second version')
    expect(await again.copying).toBe(true)
    expect(brotliDecompressSync(readFileSync(join(root, 'hold/a/@.br'))).toString()).toBe(body('second version'))
  })
})
