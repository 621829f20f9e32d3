import { basename } from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import type { SQLiteUpdateSetSource } from 'drizzle-orm/sqlite-core'
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/client.ts'
import { resourceCategories, resources } from '../../db/schema/index.ts'
import { sanitizeContentHtml } from '../../shared/sanitize.ts'
import { formatTime } from '../../shared/time.ts'
import { ImportRefused, parseImportFile, type ImportCategory, type ImportFile, type ImportResource } from './import-file.ts'
import { parentsFirst, referenceFaults } from './import-references.ts'
import { plainText } from './text.ts'

/** Larger files are refused before reading: the catalogue is small, a huge file is a mistake. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024

export interface Counts {
  created: number
  updated: number
  unchanged: number
}
export interface ImportCounts {
  categories: Counts
  resources: Counts
}

type StoredCategory = typeof resourceCategories.$inferSelect

const differs = (stored: Record<string, unknown>, values: Record<string, unknown>) =>
  Object.keys(values).some((key) => stored[key] !== values[key])

type Catalogue = typeof resourceCategories | typeof resources

/** Inserts or updates one row by its natural key, counting what happened; an identical row is left alone. */
function upsert<T extends Catalogue>(
  tx: Tx,
  table: T,
  stored: T['$inferSelect'] | undefined,
  values: T['$inferInsert'],
  now: string,
  counts: Counts,
): { id: number; changed: boolean } {
  if (!stored) {
    counts.created++
    const row = tx
      .insert(table)
      .values({ ...values, createdAt: now, updatedAt: now })
      .returning({ id: table.id })
      .get() as { id: number }
    return { id: row.id, changed: true }
  }
  if (!differs(stored, values)) {
    counts.unchanged++
    return { id: stored.id, changed: false }
  }
  tx.update(table)
    .set({ ...values, updatedAt: now } as SQLiteUpdateSetSource<T>)
    .where(eq(table.id, stored.id))
    .run()
  counts.updated++
  return { id: stored.id, changed: true }
}

const resourceValues = (r: ImportResource) => {
  const descriptionEn = sanitizeContentHtml(r.descriptionEn)
  const descriptionZh = sanitizeContentHtml(r.descriptionZh)
  return {
    productId: r.productId,
    nameEn: r.nameEn.trim(),
    nameZh: r.nameZh.trim(),
    descriptionEn,
    descriptionZh,
    descriptionTextEn: plainText(descriptionEn),
    descriptionTextZh: plainText(descriptionZh),
    categoryCode: r.categoryCode,
    stock: r.stock,
    cnyPrice: r.cnyPrice,
    usdtPrice: r.usdtPrice,
    sourceType: r.sourceType,
    status: r.status,
  }
}

const noCounts = (): Counts => ({ created: 0, updated: 0, unchanged: 0 })

/** Upserts the file's categories, parents first; returns the codes whose rows changed. */
function writeCategories(
  tx: Tx,
  categories: readonly ImportCategory[],
  stored: ReadonlyMap<string, StoredCategory>,
  now: string,
  counts: Counts,
) {
  const idByCode = new Map([...stored.values()].map((c) => [c.code, c.id]))
  const changedCodes: string[] = []
  for (const c of parentsFirst(categories)) {
    const values = {
      code: c.code,
      parentId: c.parentCode ? idByCode.get(c.parentCode)! : null,
      nameEn: c.nameEn.trim(),
      nameZh: (c.nameZh ?? '').trim(),
      iconUrl: c.iconUrl ?? '',
      sort: c.sort ?? 0,
    }
    const { id, changed } = upsert(tx, resourceCategories, stored.get(c.code), values, now, counts)
    idByCode.set(c.code, id)
    if (changed) changedCodes.push(c.code)
  }
  return changedCodes
}

/** Upserts the file's resources; returns the ids whose rows changed. */
function writeResources(tx: Tx, list: readonly ImportResource[], now: string, counts: Counts): number[] {
  const stored = new Map(
    tx
      .select()
      .from(resources)
      .all()
      .map((r) => [r.productId, r]),
  )
  return list.flatMap((r) => {
    const { id, changed } = upsert(tx, resources, stored.get(r.productId), resourceValues(r), now, counts)
    return changed ? [id] : []
  })
}

function write(tx: Tx, name: string, file: ImportFile, now: string): ImportCounts & { changedIds: number[] } {
  const stored = new Map(
    tx
      .select()
      .from(resourceCategories)
      .all()
      .map((c) => [c.code, c]),
  )
  const codeById = new Map([...stored.values()].map((c) => [c.id, c.code]))
  const faults = referenceFaults(file, stored, (id) => codeById.get(id))
  if (faults.length) throw new ImportRefused(name, faults)

  const counts: ImportCounts = { categories: noCounts(), resources: noCounts() }
  const changedCodes = writeCategories(tx, file.categories ?? [], stored, now, counts.categories)
  const changedIds = new Set(writeResources(tx, file.resources ?? [], now, counts.resources))
  // A renamed or moved category changes the cards of every resource in it.
  if (changedCodes.length)
    for (const { id } of tx.select({ id: resources.id }).from(resources).where(inArray(resources.categoryCode, changedCodes)).all())
      changedIds.add(id)
  return { ...counts, changedIds: [...changedIds] }
}

/**
 * `cli resources import FILE.json`: validates the whole file (shape, then references against
 * the database inside the write transaction), then upserts categories by `code` and resources
 * by `productId` in that one transaction. Any fault refuses the file whole; nothing is deleted.
 */
export async function importResources(ctx: Ctx, path: string): Promise<ImportCounts> {
  const name = basename(path)
  const source = Bun.file(path)
  if (!(await source.exists())) throw new ImportRefused(name, [`no such file: ${path}`])
  if (source.size > MAX_IMPORT_BYTES) throw new ImportRefused(name, [`the file is larger than ${MAX_IMPORT_BYTES} bytes`])
  return importResourcesText(ctx, name, await source.text())
}

/** One import file's text (the CLI reads it from disk, the console uploads it), checked and written as above. */
export async function importResourcesText(ctx: Ctx, name: string, text: string): Promise<ImportCounts> {
  const file = parseImportFile(name, text, ctx.config.siteUrl)
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const outcome = write(tx, name, file, formatTime(ctx.clock()))
    if (outcome.changedIds.length) record({ kind: 'resources', ids: outcome.changedIds })
    return outcome
  })
  return { categories: result.categories, resources: result.resources }
}
