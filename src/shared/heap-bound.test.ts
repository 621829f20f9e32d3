import { expect, test } from 'bun:test'
import { heapBound } from './heap-bound.ts'

test('a collection runs once use grew by the bound since the last one, and counts from what it left', () => {
  let used = 100
  const collections: number[] = []
  const bound = heapBound(
    10,
    () => used,
    () => {
      collections.push(used)
      used -= 8 // what the collection freed: 2 stay live
    },
  )
  used = 109
  bound.settle()
  expect(collections).toEqual([])
  used = 110
  bound.settle()
  expect(collections).toEqual([110])
  // The floor is now 102: 111 is within the bound, 112 reaches it.
  used = 111
  bound.settle()
  used = 112
  bound.settle()
  expect(collections).toEqual([110, 112])
})

/**
 * Runs `code` in a fresh Bun process with `heapBound` imported and prints what it prints (JSON):
 * `bun test` runs every file in one process, whose freed pages the allocator reuses, so its
 * resident memory need not grow with new garbage; a fresh process's does.
 */
function inFreshProcess(code: string): unknown {
  const source = `import { heapBound } from ${JSON.stringify(`${import.meta.dir}/heap-bound.ts`)}\n${code}`
  const run = Bun.spawnSync([process.execPath, '-e', source], { stderr: 'inherit' })
  return JSON.parse(run.stdout.toString())
}

test('the real meter and collector: garbage past the bound, Buffers as strings, is collected', () => {
  // 48 MB of Buffers, and 60,000 distinct short strings (paths, as a rebuild's marking makes:
  // ~60 MB RSS, none of it in heapUsed or external), each made and dropped in a frame of its own.
  const figures = inFreshProcess(`
    const MB = 1024 * 1024
    Bun.gc(true)
    const before = process.memoryUsage().external
    const litter = () => Array.from({ length: 48 }, () => Buffer.alloc(MB, 1)).length
    const buffers = heapBound(16 * MB)
    litter()
    buffers.settle()
    const externalLeft = (process.memoryUsage().external - before) / MB
    let collections = 0
    const strings = () =>
      Array.from({ length: 60_000 }, (_, i) => (\`en/posts/some-slug-\${i}/@\`.repeat(3) + 'x'.repeat(100) + i).toLowerCase()).length
    const bound = heapBound(16 * MB, undefined, () => { collections++; Bun.gc(true) })
    strings()
    bound.settle()
    console.log(JSON.stringify({ externalLeft, collections }))
  `) as { externalLeft: number; collections: number }
  expect(figures.externalLeft).toBeLessThan(24)
  expect(figures.collections).toBe(1)
})
