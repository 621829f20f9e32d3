import { expect, test } from 'bun:test'
import { memo, recentMemo } from './memo.ts'

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

test('a recent memo keeps the keys asked for most recently, at most its limit', () => {
  const values = recentMemo<string, string>(2)
  let made = 0
  const make = (key: string) => () => (made++, key.toUpperCase())
  expect(values('a', make('a'))).toBe('A')
  expect(values('b', make('b'))).toBe('B')
  expect(values('a', make('a'))).toBe('A') // held: a is now the newest
  expect(values('c', make('c'))).toBe('C') // full: b, the oldest, goes
  expect(made).toBe(3)
  expect(values('a', make('a'))).toBe('A')
  expect(made).toBe(3)
  expect(values('b', make('b'))).toBe('B')
  expect(made).toBe(4)
})
