import { expect, test } from 'bun:test'
import { memo } from './memo.ts'

test('memo makes each key once, null and undefined included', () => {
  const values = memo<string, number | null | undefined>()
  let made = 0
  const make = (value: number | null | undefined) => () => (made++, value)
  expect(values('a', make(1))).toBe(1)
  expect(values('a', make(2))).toBe(1)
  expect(values('n', make(null))).toBeNull()
  expect(values('n', make(3))).toBeNull()
  expect(values('u', make(undefined))).toBeUndefined()
  expect(values('u', make(4))).toBeUndefined()
  expect(made).toBe(3)
})
