import { and, eq, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { preparedOnce } from '../db/prepared.ts'
import { idempotencyKeys } from '../db/schema/index.ts'
import { DEFAULT_IDEMPOTENCY_BUDGET_BYTES } from '../config.ts'
import type { Clock } from '../shared/time.ts'
import { IDEMPOTENCY_WINDOW_MS, type Claim, type IdempotencyStore } from './idempotency.ts'

const is = (name: string) => sql.placeholder(name)
/** A placeholder where drizzle's `set` takes only SQL: no column encoder applies, so JSON goes in as text. */
const setTo = (name: string) => sql`${is(name)}`
const thisRow = and(eq(idempotencyKeys.caller, is('caller')), eq(idempotencyKeys.key, is('key')))

/** The store's statements, built and compiled once per connection (a claim runs on every keyed POST). */
const statements = preparedOnce((db) => ({
  sweep: db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, is('before')))
    .prepare(),
  find: db.select().from(idempotencyKeys).where(thisRow).prepare(),
  insert: db
    .insert(idempotencyKeys)
    .values({ caller: is('caller'), key: is('key'), fingerprint: is('fingerprint'), owner: is('owner'), createdAt: is('createdAt') })
    .prepare(),
  takeOver: db
    .update(idempotencyKeys)
    .set({ owner: setTo('owner'), createdAt: setTo('createdAt') })
    .where(thisRow)
    .prepare(),
  complete: db
    .update(idempotencyKeys)
    .set({ status: setTo('status'), headers: setTo('headers'), body: setTo('body') })
    .where(thisRow)
    .prepare(),
  release: db.delete(idempotencyKeys).where(thisRow).prepare(),
  /** Stored answers beyond the budget, oldest first: a running total of body sizes over the newest first. */
  trim: db
    .delete(idempotencyKeys)
    .where(
      sql`rowid in (select rowid from (select rowid, sum(length(${idempotencyKeys.body})) over (order by ${idempotencyKeys.createdAt} desc, rowid desc) as kept from ${idempotencyKeys} where ${idempotencyKeys.status} is not null) where kept > ${is('budget')})`,
    )
    .prepare(),
}))

/**
 * Keys in SQLite, so they survive a restart. Each claim runs in one immediate (write-locked)
 * transaction, so of parallel requests with one key exactly one runs. Expired rows are swept on
 * every claim (an indexed range delete). A running row claimed by another process — one that
 * crashed or was restarted mid-request — is taken over instead of blocking the key for a day.
 * The answers kept hold at most `budgetBytes` of bodies: past it, the oldest are dropped (a retry
 * of a dropped key runs again, as after the 24-hour window).
 */
export function createIdempotencyStore(db: Db, clock: Clock, budgetBytes = DEFAULT_IDEMPOTENCY_BUDGET_BYTES): IdempotencyStore {
  const owner = crypto.randomUUID()
  const run = statements(db)
  return {
    claim(caller, key, fingerprint): Claim {
      return db.transaction(
        () => {
          const createdAt = clock().getTime()
          run.sweep.run({ before: createdAt - IDEMPOTENCY_WINDOW_MS })
          const held = run.find.get({ caller, key })
          if (!held) {
            run.insert.run({ caller, key, fingerprint, owner, createdAt })
            return { kind: 'run' }
          }
          if (held.fingerprint !== fingerprint) return { kind: 'reused' }
          if (held.status !== null)
            return { kind: 'replay', answer: { status: held.status, headers: held.headers ?? [], body: held.body ?? '' } }
          if (held.owner === owner) return { kind: 'in-use' }
          run.takeOver.run({ owner, createdAt, caller, key })
          return { kind: 'run' }
        },
        { behavior: 'immediate' },
      )
    },
    complete(caller, key, answer) {
      db.transaction(() => {
        run.complete.run({ ...answer, headers: JSON.stringify(answer.headers), caller, key })
        run.trim.run({ budget: budgetBytes })
      })
    },
    release(caller, key) {
      run.release.run({ caller, key })
    },
  }
}
