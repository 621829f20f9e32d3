import type { Db } from './client.ts'

/**
 * Statements built and compiled once per database and reused by every call: drizzle's query
 * builder otherwise builds the SQL and SQLite compiles it anew each time, which the profile of
 * the request path shows as a large share of a small query. Build them with `sql.placeholder`
 * for the values and `.prepare()`.
 */
export function preparedOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>()
  return (db) => {
    let statements = made.get(db)
    if (!statements) {
      statements = build(db)
      made.set(db, statements)
    }
    return statements
  }
}
