import { describe, expect, test } from 'bun:test'
import { openDatabase } from '../db/client.ts'
import { ChangeFeed } from './changes.ts'

describe('ChangeFeed announcements', () => {
  test('listeners hear a write announced, then settled once, however often it is settled', () => {
    const feed = new ChangeFeed()
    const heard: string[] = []
    feed.subscribe({ announced: () => heard.push('announced'), settled: () => heard.push('settled') })
    const announcement = feed.expect()
    announcement.settle()
    announcement.settle()
    expect(heard).toEqual(['announced', 'settled'])
  })

  test('a write given its announcement settles it on commit, before any listener waits after the commit', async () => {
    const feed = new ChangeFeed()
    const heard: string[] = []
    feed.subscribe({
      announced: () => heard.push('announced'),
      settled: () => heard.push('settled'),
      afterCommit: async () => void heard.push('afterCommit'),
    })
    const db = openDatabase(':memory:')
    const announcement = feed.expect()
    await feed.write(db, (_tx, record) => record({ kind: 'settings' }), announcement)
    announcement.settle()
    expect(heard).toEqual(['announced', 'settled', 'afterCommit'])
  })

  test('a write that throws leaves its announcement open for the caller to settle', async () => {
    const feed = new ChangeFeed()
    let settled = 0
    feed.subscribe({ settled: () => settled++ })
    const announcement = feed.expect()
    await expect(
      feed.write(
        openDatabase(':memory:'),
        () => {
          throw new Error('refused')
        },
        announcement,
      ),
    ).rejects.toThrow('refused')
    expect(settled).toBe(0)
    announcement.settle()
    expect(settled).toBe(1)
  })
})
