import { expect, test } from 'bun:test'
import { heapBound, renderLoopBound } from './heap-bound.ts'

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

/** 48 MB of Buffers made and dropped in a frame of its own, so no stack slot keeps one alive. */
const litter = () => Array.from({ length: 48 }, () => Buffer.alloc(1024 * 1024, 1)).length

// `bun test` runs every file in one process: what other files hold is measured first and left out.
test('the real meter and collector: garbage Buffers past the bound are collected', () => {
  Bun.gc(true)
  const before = process.memoryUsage().external
  const bound = heapBound(16 * 1024 * 1024)
  expect(litter()).toBe(48)
  bound.settle()
  expect(process.memoryUsage().external - before).toBeLessThan(24 * 1024 * 1024)
})

test('the thread that answers reads while slices render elsewhere never collects; every other render loop does', () => {
  const collected: string[] = []
  let used = 0
  const bounded = (name: string) => () =>
    heapBound(
      10,
      () => used,
      () => collected.push(name),
    )
  const serving = renderLoopBound({ servesReads: true, rendersHere: false }, bounded('serving, slices on threads'))
  const servingAndRendering = renderLoopBound({ servesReads: true, rendersHere: true }, bounded('serving, RENDER_WORKERS=0'))
  const cli = renderLoopBound({ servesReads: false, rendersHere: false }, bounded('a CLI command'))
  used = 1_000
  for (const bound of [serving, servingAndRendering, cli]) bound.settle()
  expect(collected).toEqual(['serving, RENDER_WORKERS=0', 'a CLI command'])
})
