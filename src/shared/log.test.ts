import { expect, test } from 'bun:test'
import { batchedLines, createLogger } from './log.ts'

test('batched lines: written in order, in batches within the bound, all of them once flushed', async () => {
  const writes: string[] = []
  const lines = batchedLines(
    (chunk, done) => {
      if (chunk) writes.push(chunk)
      done()
    },
    10_000,
    100,
  )
  for (let i = 0; i < 20; i++) lines(`line ${i} ${'x'.repeat(10)}`)
  expect(writes.every((chunk) => chunk.length <= 100 && chunk.endsWith('\n'))).toBe(true)
  await lines.flush()
  expect(writes.join('').split('\n').slice(0, -1)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i} ${'x'.repeat(10)}`))
})

test('batched lines leave on their own after the short delay', async () => {
  const writes: string[] = []
  // The write itself is the signal that the delay's timer fired: no window on the real clock.
  let wrote = () => {}
  const written = new Promise<void>((resolve) => (wrote = resolve))
  const lines = batchedLines((chunk, done) => {
    writes.push(chunk)
    done()
    wrote()
  }, 5)
  lines('one')
  expect(writes).toEqual([])
  await written
  expect(writes).toEqual(['one\n'])
})

test('the logger writes the same JSON object as before, and pushes an error line out at once', async () => {
  const written: string[] = []
  let flushed = 0
  const sink = Object.assign((line: string) => void written.push(line), { flush: async () => void flushed++ })
  const log = createLogger('info', sink)
  log.debug('hidden')
  log.info('request', { path: '/a "b"', status: 200, token: null })
  log.error('boom')
  expect(written.map((line) => JSON.parse(line))).toEqual([
    { time: expect.any(String), level: 'info', message: 'request', path: '/a "b"', status: 200, token: null },
    { time: expect.any(String), level: 'error', message: 'boom' },
  ])
  expect(flushed).toBe(1)
})
