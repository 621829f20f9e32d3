import { and, eq, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { importItems } from '../../db/schema/index.ts'
import { formatTime } from '../../shared/time.ts'

export type ItemKind = 'post' | 'page' | 'category' | 'tag' | 'author' | 'comment'

export interface Known {
  targetId: number
  digest: string
}

/**
 * Built once per connection: an import asks and remembers once per post, comment, term and old
 * URL, and drizzle would otherwise build each statement again for every row.
 */
const statements = preparedOnce((db) => ({
  known: db
    .select({ targetId: importItems.targetId, digest: importItems.digest })
    .from(importItems)
    .where(
      and(
        eq(importItems.source, sql.placeholder('source')),
        eq(importItems.kind, sql.placeholder('kind')),
        eq(importItems.sourceId, sql.placeholder('sourceId')),
      ),
    )
    .prepare(),
  remember: db
    .insert(importItems)
    .values({
      source: sql.placeholder('source'),
      kind: sql.placeholder('kind'),
      sourceId: sql.placeholder('sourceId'),
      targetId: sql.placeholder('targetId'),
      digest: sql.placeholder('digest'),
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
    })
    .onConflictDoUpdate({
      target: [importItems.source, importItems.kind, importItems.sourceId],
      set: { targetId: sql`excluded.target_id`, digest: sql`excluded.digest`, updatedAt: sql`excluded.updated_at` },
    })
    .prepare(),
}))

/** The Folio row an earlier run of this import wrote for a source item. */
export function knownItem(db: Queryable, source: string, kind: ItemKind, sourceId: string): Known | undefined {
  return statements(db).known.get({ source, kind, sourceId })
}

/** Remembers (or moves) the Folio row of a source item, in the transaction that wrote the row. */
export function rememberItem(db: Queryable, source: string, kind: ItemKind, sourceId: string, targetId: number, digest = ''): void {
  statements(db).remember.run({ source, kind, sourceId, targetId, digest, now: formatTime(new Date()) })
}

/** A stable hash of what an item carries: equal on a re-run of the same file, so the item is skipped. */
export const digestOf = (value: unknown): string => new Bun.CryptoHasher('sha256').update(JSON.stringify(value)).digest('base64url')
