import { expect, test } from 'bun:test'
import { createCopiesThrottle } from './copies-throttle.ts'

test('copies handed out within the span wait for its end; after it, or for another path, they may be written now', () => {
  let clock = 10_000
  const throttle = createCopiesThrottle(1_000, () => clock)
  expect(throttle.waitMs('api/v1/blog/posts/@')).toBeNull()
  throttle.copied('api/v1/blog/posts/@')
  // A burst's next pass, 300 ms later: the home list's copies are left for 700 ms more.
  clock += 300
  expect(throttle.waitMs('api/v1/blog/posts/@')).toBe(700)
  expect(throttle.waitMs('api/v1/blog/posts/other/@')).toBeNull()
  clock += 699.5
  expect(throttle.waitMs('api/v1/blog/posts/@')).toBe(1)
  clock += 0.5
  expect(throttle.waitMs('api/v1/blog/posts/@')).toBeNull()
})

test('copying again restarts the span; old entries are dropped as the span passes', () => {
  let clock = 0
  const throttle = createCopiesThrottle(1_000, () => clock)
  throttle.copied('a/@')
  clock = 600
  throttle.copied('b/@')
  throttle.copied('a/@')
  clock = 1_200
  expect(throttle.waitMs('a/@')).toBe(400)
  expect(throttle.waitMs('b/@')).toBe(400)
  clock = 1_600
  expect([throttle.waitMs('a/@'), throttle.waitMs('b/@')]).toEqual([null, null])
})
