import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { idempotencyKeys } from '../db/schema/index.ts'
import type { Clock } from '../shared/time.ts'
import { IDEMPOTENCY_WINDOW_MS, type Claim, type IdempotencyStore } from './idempotency.ts'

/**
 * Keys in SQLite, so they survive a restart. Each claim runs in one immediate (write-locked)
 * transaction, so of parallel requests with one key exactly one runs. Expired rows are swept on
 * every claim (an indexed range delete). A running row claimed by another process — one that
 * crashed or was restarted mid-request — is taken over instead of blocking the key for a day.
 */
export function createIdempotencyStore(db: Db, clock: Clock): IdempotencyStore {
  const owner = crypto.randomUUID()
  const row = (caller: string, key: string) => and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key))
  const sweep = (tx: Pick<Db, 'delete'>) =>
    tx
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, clock().getTime() - IDEMPOTENCY_WINDOW_MS))
      .run()
  return {
    claim(caller, key, fingerprint): Claim {
      return db.transaction(
        (tx) => {
          sweep(tx)
          const held = tx.select().from(idempotencyKeys).where(row(caller, key)).get()
          const createdAt = clock().getTime()
          if (!held) {
            tx.insert(idempotencyKeys).values({ caller, key, fingerprint, owner, createdAt }).run()
            return { kind: 'run' }
          }
          if (held.fingerprint !== fingerprint) return { kind: 'reused' }
          if (held.status !== null)
            return { kind: 'replay', answer: { status: held.status, headers: held.headers ?? [], body: held.body ?? '' } }
          if (held.owner === owner) return { kind: 'in-use' }
          tx.update(idempotencyKeys).set({ owner, createdAt }).where(row(caller, key)).run()
          return { kind: 'run' }
        },
        { behavior: 'immediate' },
      )
    },
    complete(caller, key, answer) {
      db.update(idempotencyKeys).set(answer).where(row(caller, key)).run()
    },
    release(caller, key) {
      db.delete(idempotencyKeys).where(row(caller, key)).run()
    },
  }
}
