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

/** 60,000 distinct short strings (paths, as a rebuild's marking makes): ~60 MB RSS, made and dropped in a frame of their own. */
const strings = () =>
  Array.from({ length: 60_000 }, (_, i) => (`en/posts/some-slug-${i}/@`.repeat(3) + 'x'.repeat(100) + i).toLowerCase()).length

test('the real meter sees strings, which the heap meters miss: their garbage past the bound is collected', () => {
  Bun.gc(true)
  let collections = 0
  const bound = heapBound(16 * 1024 * 1024, undefined, () => {
    collections++
    Bun.gc(true)
  })
  expect(strings()).toBe(60_000)
  bound.settle()
  expect(collections).toBe(1)
})
