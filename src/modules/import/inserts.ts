import { getTableName, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { comments, posts } from '../../db/schema/index.ts'

type Table = typeof posts | typeof comments
type Insert = { get(values: Record<string, unknown>): { id: number } | undefined }

/** Each connection's insert statements, by table and the columns a row sets. */
const built = preparedOnce(() => new Map<string, Insert>())

/**
 * Inserts a row and returns its id with a statement built and compiled once per table and set of
 * columns: an import inserts a post and three comments a post, and drizzle would otherwise build
 * and SQLite compile each of those statements again for every row (most of a batch's time in the
 * profile). Values go through the columns' own encoders (JSON, booleans), as a one-off insert's do;
 * an undefined value is left to the column's default, as drizzle leaves it.
 */
export function insertReturningId(db: Queryable, table: Table, row: Record<string, unknown>): number {
  const values = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined))
  const columns = Object.keys(values).sort()
  const key = `${getTableName(table)}(${columns.join(',')})`
  const statements = built(db)
  let insert = statements.get(key)
  if (!insert) {
    const placeholders = Object.fromEntries(columns.map((column) => [column, sql.placeholder(column)]))
    insert = (db.insert(table) as unknown as { values(v: object): { returning(r: object): { prepare(): Insert } } })
      .values(placeholders)
      .returning({ id: table.id })
      .prepare()
    statements.set(key, insert)
  }
  return insert.get(values)!.id
}
