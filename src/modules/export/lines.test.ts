import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LineTooLong, linesOf } from './lines.ts'

const dir = mkdtempSync(join(tmpdir(), 'folio-lines-'))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const all = (path: string, max: number, chunk: number) => [...linesOf(path, max, chunk)].map((l) => [l.number, l.line])

describe('linesOf', () => {
  test('lines across chunk boundaries, multi-byte characters split by a chunk, no final newline', () => {
    const text = '{"a":1}\n静态页面\n\n' + 'x'.repeat(50) + '\nlast'
    for (const chunk of [1, 2, 3, 7, 64, 4096])
      expect(all(file('a.jsonl', text), 1000, chunk)).toEqual([
        [1, '{"a":1}'],
        [2, '静态页面'],
        [3, ''],
        [4, 'x'.repeat(50)],
        [5, 'last'],
      ])
    expect(all(file('b.jsonl', ''), 10, 4)).toEqual([])
    expect(all(file('c.jsonl', 'one\n'), 10, 4)).toEqual([[1, 'one']])
  })

  test('a line over the bound is refused with its number, ended by a newline or not', () => {
    for (const text of ['ok\n' + 'y'.repeat(11) + '\nok\n', 'ok\n' + 'y'.repeat(11)])
      for (const chunk of [3, 5, 64]) {
        const read = () => all(file('d.jsonl', text), 10, chunk)
        expect(read).toThrow(LineTooLong)
        expect(read).toThrow('line 2 is too long')
      }
    // At the bound exactly: read.
    expect(all(file('e.jsonl', 'z'.repeat(10)), 10, 3)).toEqual([[1, 'z'.repeat(10)]])
  })

  test('a large file is read a chunk at a time in linear time', () => {
    const row = JSON.stringify({ title: 'a post', body: 'b'.repeat(200) })
    const path = file('big.jsonl', (row + '\n').repeat(20_000))
    let count = 0
    for (const { line } of linesOf(path, 1024, 64 * 1024)) if (line === row) count++
    expect(count).toBe(20_000)
  })
})
