import { describe, expect, test } from 'bun:test'
import { statusText, threaded } from './present.ts'

describe('statusText', () => {
  test('is localized by the post language', () => {
    expect([0, 1, 2].map((s) => statusText(s, 'en'))).toEqual(['Pending', 'Approved', 'Rejected'])
    expect([0, 1, 2].map((s) => statusText(s, 'zh'))).toEqual(['待审核', '已通过', '已拒绝'])
  })
})

describe('threaded', () => {
  const row = (id: number, parentId: number | null, createdAt: string) => ({ id, parentId, createdAt })

  test('parents oldest first, each followed by its replies depth first', () => {
    const rows = [
      row(5, 1, '2024-01-01 00:00:05'),
      row(2, null, '2024-01-01 00:00:02'),
      row(1, null, '2024-01-01 00:00:01'),
      row(4, 2, '2024-01-01 00:00:04'),
      row(3, 1, '2024-01-01 00:00:03'),
      row(6, 3, '2024-01-01 00:00:06'),
    ]
    expect(threaded(rows).map((r) => r.id)).toEqual([1, 3, 6, 5, 2, 4])
  })

  test('a reply whose parent is missing is left out', () => {
    expect(threaded([row(1, null, 'a'), row(2, 9, 'b')]).map((r) => r.id)).toEqual([1])
  })

  test('a very long reply chain does not exhaust the stack', () => {
    const chain = Array.from({ length: 50_000 }, (_, i) => row(i + 1, i === 0 ? null : i, '2024-01-01 00:00:00'))
    expect(threaded(chain)).toHaveLength(50_000)
  })
})
