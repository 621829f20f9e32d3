import { closeSync, openSync, readSync } from 'node:fs'

/**
 * The lines of a file, read a chunk at a time, so memory holds one chunk and one line whatever the
 * file's size (`import folio` reads its `tables/*.jsonl` so, inside one synchronous transaction).
 * A line longer than `maxLineBytes` throws `LineTooLong` with its number. UTF-8: a newline byte is
 * never part of another character, so each line is decoded on its own. Every byte is looked at once.
 */
export function* linesOf(path: string, maxLineBytes: number, chunkBytes = 1 << 20): Generator<{ line: string; number: number }> {
  const fd = openSync(path, 'r')
  const decoder = new TextDecoder()
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes)
    let pending: Buffer[] = []
    let pendingBytes = 0
    let number = 0
    const take = (last: Buffer) => {
      const bytes = pending.length ? Buffer.concat([...pending, last]) : last
      pending = []
      pendingBytes = 0
      return { line: decoder.decode(bytes), number: ++number }
    }
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      let start = 0
      for (let end = chunk.indexOf(10, start); end !== -1 && end < read; end = chunk.indexOf(10, start)) {
        if (pendingBytes + end - start > maxLineBytes) throw new LineTooLong(number + 1)
        yield take(chunk.subarray(start, end))
        start = end + 1
      }
      pendingBytes += read - start
      if (pendingBytes > maxLineBytes) throw new LineTooLong(number + 1)
      // Copied: the chunk is read into again.
      if (read > start) pending.push(Buffer.from(chunk.subarray(start, read)))
    }
    if (pendingBytes) yield take(Buffer.alloc(0))
  } finally {
    closeSync(fd)
  }
}

export class LineTooLong extends Error {
  constructor(readonly number: number) {
    super(`line ${number} is too long`)
  }
}
