import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { LITESTREAM_WAL_AUTOCHECKPOINT, openDatabase, type Db } from '../../src/db/client.ts'

const dirs: string[] = []
const opened: Db[] = []

afterEach(() => {
  for (const db of opened.splice(0)) db.$client.close()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function open(options?: Parameters<typeof openDatabase>[1]) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-sqlite-settings-'))
  dirs.push(dir)
  const db = openDatabase(join(dir, 'folio.db'), options)
  opened.push(db)
  return (pragma: string) => Object.values(db.$client.query(`PRAGMA ${pragma}`).get() as Record<string, unknown>)[0]
}

describe('SQLite settings Litestream relies on', () => {
  test('every connection is in WAL mode with a 5 s busy timeout, replicated or not', () => {
    for (const pragma of [open(), open({ replication: 'litestream' })]) {
      expect(pragma('journal_mode')).toBe('wal')
      expect(pragma('busy_timeout')).toBe(5000)
    }
  })

  test("opening waits out another process that holds the file locked, as a closing connection's checkpoint does", async () => {
    // Another process takes the file's exclusive lock for a second (a server's last connection does,
    // to checkpoint and remove the WAL, as it closes), and says when it lets go: a start beside it
    // must wait, not fail. A test process descheduled past the hold would open an unlocked file,
    // testing nothing: such a try is done again rather than judged (no window on the real clock).
    for (let attempt = 1; ; attempt++) {
      const dir = mkdtempSync(join(tmpdir(), 'folio-sqlite-settings-'))
      dirs.push(dir)
      const file = join(dir, 'folio.db')
      openDatabase(file).$client.close()
      const holder = Bun.spawn(
        [
          process.execPath,
          '-e',
          `const db = new (require('bun:sqlite').Database)(${JSON.stringify(file)});
           db.exec('PRAGMA locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE'); db.exec('CREATE TABLE held (x)');
           console.log('held'); Bun.sleepSync(1000); console.log('releasing ' + Date.now()); db.exec('COMMIT'); db.close()`,
        ],
        { stdout: 'pipe' },
      )
      const reader = holder.stdout.getReader()
      let said = new TextDecoder().decode((await reader.read()).value)
      expect(said).toContain('held')
      const started = Date.now()
      const db = openDatabase(file)
      opened.push(db)
      const finished = Date.now()
      expect(db.$client.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) said += new TextDecoder().decode(chunk.value)
      const released = Number(/releasing (\d+)/.exec(said)?.[1])
      expect(await holder.exited).toBe(0)
      if (started >= released && attempt < 5) continue
      // The open began while the file was locked, and ended once it was let go.
      expect(started).toBeLessThan(released)
      expect(finished).toBeGreaterThanOrEqual(released)
      return
    }
  })

  test('without replication SQLite checkpoints at its default; with Litestream the mark is raised so Litestream checkpoints first', () => {
    expect(open()('wal_autocheckpoint')).toBe(1000)
    expect(open({ replication: 'off' })('wal_autocheckpoint')).toBe(1000)
    expect(open({ replication: 'litestream' })('wal_autocheckpoint')).toBe(LITESTREAM_WAL_AUTOCHECKPOINT)
    expect(LITESTREAM_WAL_AUTOCHECKPOINT).toBeGreaterThan(1000)
  })

  test('DB_REPLICATION is off by default, accepts litestream, and names itself when wrong', () => {
    expect(loadConfig({}).dbReplication).toBe('off')
    expect(loadConfig({ DB_REPLICATION: 'litestream' }).dbReplication).toBe('litestream')
    expect(() => loadConfig({ DB_REPLICATION: 'lightstream' })).toThrow(/^DB_REPLICATION: expected one of off, litestream/)
  })
})
