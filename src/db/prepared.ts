import type { Database } from 'bun:sqlite'
import type { Queryable } from './client.ts'

/** The connection under a handle: a transaction's handle is a new object each time, its connection is not. */
const connectionOf = (db: Queryable): Database => (db as unknown as { session: { client: Database } }).session.client

/**
 * Statements built and compiled once per database connection and reused by every call: drizzle's
 * query builder otherwise builds the SQL and SQLite compiles it anew each time, which the profile of
 * the request path shows as a large share of a small query. Build them with `sql.placeholder`
 * for the values and `.prepare()`. A statement prepared on the database runs inside whatever
 * transaction its connection is in, so a render pass's read snapshot (a `db.transaction`) reuses
 * the same statements.
 */
export function preparedOnce<T>(build: (db: Queryable) => T): (db: Queryable) => T {
  const made = new WeakMap<Database, T>()
  return (db) => {
    const connection = connectionOf(db)
    let statements = made.get(connection)
    if (!statements) {
      statements = build(db)
      made.set(connection, statements)
    }
    return statements
  }
}
