import type { Database } from 'bun:sqlite'
import { sql, type SQLWrapper } from 'drizzle-orm'
import type { Queryable } from './client.ts'

/** The SQLite connection behind a database or a transaction on it (a transaction runs on its database's connection). */
export const connectionOf = (db: Queryable): Database =>
  '$client' in db ? db.$client : (db as unknown as { session: { client: Database } }).session.client

/**
 * Statements built and compiled once per database connection and reused by every call: drizzle's
 * query builder otherwise builds the SQL and SQLite compiles it anew each time, which the profile
 * of the request path shows as a large share of a small query. Build them with `sql.placeholder`
 * for the values and `.prepare()`. A statement prepared on a connection runs inside any of its
 * transactions, so verbs that receive a transaction share the statements of its database.
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

/** Rows whose `column` is in the JSON array bound to the placeholder `name` (`ids`): one statement for any number of values. */
export const idIn = (column: SQLWrapper, name = 'ids') => sql`${column} in (select value from json_each(${sql.placeholder(name)}))`
