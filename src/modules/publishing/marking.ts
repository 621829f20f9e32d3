import type { Database } from 'bun:sqlite'
import { ABSENT } from './jobs.ts'
import { heapBound } from '../../shared/heap-bound.ts'
import { MAIN_FILE, scanDisk } from './disk-scan.ts'

/** Rows a rebuild's marking holds at once: its memory does not grow with the site. */
export const MARKING_CHUNK = 1000

/** An expected artifact's file as the marking sees it: the bits of what is on disk (0: nothing), and its manifest hash (null: none). */
export interface ExpectedFile {
  path: string
  bits: number
  hash: string | null
}

/**
 * What a rebuild compares, staged in temp tables of its own connection instead of JS maps: the
 * names on disk with their bits, and the files the database calls for. A site of 10,000 posts
 * is ~30,000 artifacts and ~90,000 files; held as maps and arrays at once they lifted the server
 * by ~170 MB (docs/memory.md). SQLite holds them within its page cache (spilling to a temp file),
 * and the marking walks them in sorted chunks of `chunk` rows. Temp tables are private to the
 * connection, so nothing else sees them; `drop` removes them.
 */
export function markingStage(sqlite: Database, chunk = MARKING_CHUNK) {
  sqlite.run('drop table if exists temp.rebuild_disk')
  sqlite.run('drop table if exists temp.rebuild_expected')
  sqlite.run('create temp table rebuild_disk (path text primary key, bits integer not null) without rowid')
  sqlite.run('create temp table rebuild_expected (path text primary key) without rowid')
  const noteDisk = sqlite.prepare(
    'insert into temp.rebuild_disk (path, bits) values (?1, ?2) on conflict (path) do update set bits = bits | excluded.bits',
  )
  const noteExpected = sqlite.prepare('insert or ignore into temp.rebuild_expected (path) values (?1)')
  const recorded = sqlite.prepare<{ hash: string }, [string]>('select hash from artifact_files where path = ?1')
  const seen = sqlite.prepare<{ found: number }, [string]>('select 1 as found from temp.rebuild_disk where path = ?1')
  const expectedPage = sqlite.prepare<ExpectedFile, [string, number]>(
    `select e.path as path, coalesce(d.bits, 0) as bits, f.hash as hash from temp.rebuild_expected e
     left join temp.rebuild_disk d on d.path = e.path left join artifact_files f on f.path = e.path
     where e.path > ?1 order by e.path limit ?2`,
  )
  const strayPage = sqlite.prepare<{ path: string }, [string, number]>(
    `select path from temp.rebuild_disk where path > ?1 and path not in (select path from temp.rebuild_expected) order by path limit ?2`,
  )
  // What each chunk leaves behind (listings read, rows, strings) is collected past a bound, as a
  // pass's is; metered by resident memory, since most of it is strings' storage the heap's meter misses.
  const bound = heapBound(undefined, () => process.memoryUsage.rss())
  /** Batches of rows written in one transaction each (nested inside the caller's, when there is one). */
  const batched = <T>(write: (rows: T[]) => void) => {
    const flush = sqlite.transaction(write)
    let rows: T[] = []
    return {
      add(row: T) {
        rows.push(row)
        if (rows.length >= chunk) this.flush()
      },
      flush() {
        if (rows.length) flush(rows)
        rows = []
        bound.settle()
      },
    }
  }
  /** Keyset pages of a sorted query, `chunk` rows at a time. */
  function* pages<T extends { path: string }>(page: (after: string) => T[]): Generator<T[]> {
    for (let after = ''; ;) {
      const rows = page(after)
      if (!rows.length) return
      yield rows
      after = rows.at(-1)!.path
      bound.settle()
    }
  }

  return {
    /** Walks CACHE_DIR (outside any write transaction) into the disk table. */
    scan(cacheDir: string, tops: readonly string[], now: number): void {
      const disk = batched<[string, number]>((rows) => rows.forEach((row) => noteDisk.run(...row)))
      scanDisk(cacheDir, tops, now, (name, bit) => disk.add([name, bit]))
      disk.flush()
    },
    /** Records the files the database calls for: those `keep` accepts, told each one's manifest hash (undefined: none). */
    expect(paths: Iterable<string>, keep: (path: string, hash: string | undefined) => boolean): void {
      const expected = batched<string>((rows) => rows.forEach((path) => noteExpected.run(path)))
      for (const path of paths) if (keep(path, recorded.get(path)?.hash)) expected.add(path)
      expected.flush()
    },
    /**
     * Forgets the manifest's entries it can no longer vouch for, in one statement: every one in a
     * cache not its own; else a file's hash while the file is not on disk, and an absent
     * artifact's while something is there or nothing calls for it.
     */
    forget(ownCache: boolean): void {
      if (!ownCache) return void sqlite.run('delete from artifact_files')
      sqlite.run(
        `delete from artifact_files where path in (
           select f.path from artifact_files f left join temp.rebuild_disk d on d.path = f.path
           where case when f.hash = ?1
             then coalesce(d.bits, 0) & ${MAIN_FILE} != 0 or f.path not in (select path from temp.rebuild_expected)
             else coalesce(d.bits, 0) & ${MAIN_FILE} = 0 end)`,
        [ABSENT],
      )
    },
    /** The expected files in sorted chunks, with what is on disk and the manifest's hash (as `forget` left it). */
    expected: () => pages((after) => expectedPage.all(after, chunk)),
    /** Names on disk nothing calls for, in sorted chunks. */
    strays: () => pages((after) => strayPage.all(after, chunk)),
    /** Whether the scan found anything named `path` on disk (a main file or a copy). */
    has: (path: string): boolean => seen.get(path) !== null,
    drop(): void {
      for (const statement of [noteDisk, noteExpected, recorded, seen, expectedPage, strayPage]) statement.finalize()
      sqlite.run('drop table if exists temp.rebuild_disk')
      sqlite.run('drop table if exists temp.rebuild_expected')
    },
  }
}
