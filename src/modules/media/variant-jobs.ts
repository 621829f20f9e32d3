import { eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { media } from '../../db/schema/index.ts'
import type { ChangeFeed } from '../../shared/changes.ts'
import type { Logger } from '../../shared/log.ts'
import { changesShowing } from './showing.ts'
import type { MediaStore } from './store.ts'
import { makeVariants } from './variants.ts'

export interface VariantJobDeps {
  db: Db
  store: MediaStore
  /** `MAX_IMAGE_PIXELS`: no original past it is decoded. */
  maxPixels: number
  log: Logger
  /** The variants land in a write of the change feed, with the changes re-rendering what shows the image (showing.ts). */
  changes: ChangeFeed
}

/** What became of one upload's variants. */
export type VariantOutcome = 'made' | 'had' | 'none' | 'failed'

/**
 * How long an upload waits for its variants before it answers anyway (they are finished in the
 * background): well inside Bun's 10 s idle limit on a connection. A 24-megapixel JPEG took 3.6 s
 * on the 2-core box with 20 other processes running.
 */
const UPLOAD_WAIT_MS = 5000

/**
 * Variants made once per upload (docs/media.md, "Variants"). The media row is the job: its
 * `variants` column is null until every variant file is stored, so an upload whose variants a
 * crash cut short is finished at the next start (`drain`) or by `cli media variants --missing`.
 * One image at a time per process, so parallel uploads never multiply the encoder's memory.
 */
export function variantJobs(deps: VariantJobDeps) {
  const { db, store, log } = deps
  let chain: Promise<unknown> = Promise.resolve()
  let closed = false
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work)
    chain = next.catch(() => {})
    return next
  }

  const makeFor = async (hash: string, again: boolean): Promise<VariantOutcome> => {
    const row = db.select().from(media).where(eq(media.hash, hash)).get()
    if (!row) return 'none'
    if (row.variants !== null && !again) return 'had'
    const original = await store.read(row.key)
    let made
    try {
      if (!original) throw new Error('the original is missing from the media store')
      made = await makeVariants(row.key, original, row.contentType, deps.maxPixels)
    } catch (error) {
      // An original the encoder cannot read keeps its plain <img>; it is not tried again.
      log.warn('media variants not made', { key: row.key, error: error instanceof Error ? error.message : String(error) })
      db.update(media).set({ variants: '[]' }).where(eq(media.hash, hash)).run()
      return 'failed'
    }
    // Files first, the row last: a row that names variants always has them. The pages already
    // showing the plain image are re-rendered by the changes committed with it.
    for (const file of made.files) await store.put(file.key, file.bytes, file.contentType)
    await deps.changes.write(db, (tx, record) => {
      tx.update(media)
        .set({
          width: made.width || null,
          height: made.height || null,
          variants: JSON.stringify(made.widths),
          largestVariantSize: made.files.at(-1)?.bytes.byteLength ?? null,
        })
        .where(eq(media.hash, hash))
        .run()
      if (made.widths.length) for (const change of changesShowing(tx, row.key)) record(change)
    })
    return made.widths.length ? 'made' : 'none'
  }

  /** The variants of one upload, unless it has them (or, with `again`, made anew). A store fault is logged and left for later. */
  const ensure = (hash: string, again = false): Promise<VariantOutcome> =>
    serial(async () => {
      try {
        return await makeFor(hash, again)
      } catch (error) {
        log.error('media variants failed; left for the next start or `cli media variants --missing`', {
          hash,
          error: error instanceof Error ? error.message : String(error),
        })
        return 'failed'
      }
    })

  /** `ensure`, waited for at most `ms`: past it the work goes on and the caller goes on without it. */
  const ensureWithin = async (hash: string, ms = UPLOAD_WAIT_MS): Promise<VariantOutcome | 'later'> => {
    let timer: Timer | undefined
    const later = new Promise<'later'>((resolve) => (timer = setTimeout(() => resolve('later'), ms)))
    try {
      return await Promise.race([ensure(hash), later])
    } finally {
      clearTimeout(timer)
    }
  }

  /** Hashes of the uploads still without variants (`missing`), or of every upload. */
  const hashes = (missing: boolean): string[] =>
    (missing ? db.select({ hash: media.hash }).from(media).where(isNull(media.variants)) : db.select({ hash: media.hash }).from(media))
      .orderBy(media.createdAt, media.hash)
      .all()
      .map((r) => r.hash)

  /** Variants for many uploads, one after another, telling `progress` after each. */
  const run = async (missing: boolean, progress: (done: number, total: number, outcome: VariantOutcome) => void = () => {}) => {
    const todo = hashes(missing)
    const counts: Record<VariantOutcome, number> = { made: 0, had: 0, none: 0, failed: 0 }
    for (const [i, hash] of todo.entries()) {
      if (closed) break
      const outcome = await ensure(hash, !missing)
      counts[outcome]++
      progress(i + 1, todo.length, outcome)
    }
    return counts
  }

  /** Stops a `run` between two images and waits for the image in hand. */
  const close = async () => {
    closed = true
    await chain
  }

  return { ensure, ensureWithin, run, close }
}

export type VariantJobs = ReturnType<typeof variantJobs>
