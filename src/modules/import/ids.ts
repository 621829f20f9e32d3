import { and, eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { importItems } from '../../db/schema/index.ts'
import { formatTime } from '../../shared/time.ts'

export type ItemKind = 'post' | 'page' | 'category' | 'tag' | 'author' | 'comment'

export interface Known {
  targetId: number
  digest: string
}

/** The Folio row an earlier run of this import wrote for a source item. */
export function knownItem(db: Queryable, source: string, kind: ItemKind, sourceId: string): Known | undefined {
  return db
    .select({ targetId: importItems.targetId, digest: importItems.digest })
    .from(importItems)
    .where(and(eq(importItems.source, source), eq(importItems.kind, kind), eq(importItems.sourceId, sourceId)))
    .get()
}

/** Remembers (or moves) the Folio row of a source item, in the transaction that wrote the row. */
export function rememberItem(db: Queryable, source: string, kind: ItemKind, sourceId: string, targetId: number, digest = ''): void {
  const now = formatTime(new Date())
  db.insert(importItems)
    .values({ source, kind, sourceId, targetId, digest, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [importItems.source, importItems.kind, importItems.sourceId], set: { targetId, digest, updatedAt: now } })
    .run()
}

/** A stable hash of what an item carries: equal on a re-run of the same file, so the item is skipped. */
export const digestOf = (value: unknown): string => new Bun.CryptoHasher('sha256').update(JSON.stringify(value)).digest('base64url')
