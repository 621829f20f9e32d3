import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../shared/log.ts'
import { placingThread } from './placing.ts'

const root = mkdtempSync(join(tmpdir(), 'folio-placing-'))
const placer = placingThread(
  root,
  createLogger('error', () => {}),
)
afterAll(async () => {
  await placer.close()
  rmSync(root, { recursive: true, force: true })
})

test('the placing thread writes and removes main files in the order asked, and answers a failure as one', async () => {
  const bytes = (text: string) => new TextEncoder().encode(text)
  const place = async (path: string, content: Uint8Array | null) => (await placer.place(path, content, Date.now(), false)).outcome
  expect(await place('posts/a/@', bytes('first'))).toBe('written')
  expect(await place('posts/a/@', bytes('second'))).toBe('written')
  // The caller sees the file as soon as the answer arrives: the read that follows gets it.
  expect(readFileSync(join(root, 'posts/a/@'), 'utf8')).toBe('second')
  expect(await place('posts/a/@', null)).toBe('removed')
  expect(existsSync(join(root, 'posts/a/@'))).toBe(false)
  expect(await place('posts/a/@', null)).toBe('absent')
  // A file where a folder must go, inside a folder the thread cannot replace: refused, never thrown on the thread.
  writeFileSync(join(root, 'blocked'), '')
  expect(await place('blocked/x/@', bytes('never')).catch(String)).toMatch(/ENOTDIR/)
  expect(await place('posts/b/@', bytes('after a failure'))).toBe('written')
})
