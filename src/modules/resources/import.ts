import { basename } from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Tx } from '../../db/client.ts'
import { resourceCategories, resources } from '../../db/schema/index.ts'
import { formatTime } from '../../shared/time.ts'
import { sanitizeContentHtml } from '../../shared/sanitize.ts'
import { ImportRefused, parseImportFile, type ImportCategory, type ImportFile, type ImportResource } from './import-file.ts'
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
type StoredResource = typeof resources.$inferSelect

/**
 * Faults only the whole picture shows: repeated keys, codes naming no category in the file or the
 * database, and parent chains that loop (counting stored parents the file does not change).
 */
function referenceFaults(file: ImportFile, stored: ReadonlyMap<string, StoredCategory>, storedCodeOf: (id: number) => string | undefined) {
  const faults: string[] = []
  const categories = file.categories ?? []
  const firstIndex = new Map<string, number>()
  categories.forEach((c, i) => {
    const first = firstIndex.get(c.code)
    if (first === undefined) firstIndex.set(c.code, i)
    else faults.push(`categories[${i}].code: duplicate of categories[${first}] (code "${c.code}")`)
  })
  const inFile = new Map(categories.map((c) => [c.code, c]))
  const known = (code: string) => inFile.has(code) || stored.has(code)
  const parentOf = (code: string): string | null => {
    const fromFile = inFile.get(code)
    if (fromFile) return fromFile.parentCode ?? null
    const parentId = stored.get(code)?.parentId
    return parentId == null ? null : (storedCodeOf(parentId) ?? null)
  }
  categories.forEach((c, i) => {
    if (c.parentCode && !known(c.parentCode)) {
      faults.push(`categories[${i}].parentCode: no category "${c.parentCode}" in the file or the database (code "${c.code}")`)
      return
    }
    const chain = [c.code]
    for (let code = parentOf(c.code); code !== null && known(code); code = parentOf(code)) {
      chain.push(code)
      if (code === c.code) {
        faults.push(`categories[${i}].parentCode: the parent chain loops: ${chain.join(' -> ')}`)
        break
      }
      if (chain.length > inFile.size + stored.size + 1) break // a loop above this category, reported at its own members
    }
  })
  const firstProduct = new Map<string, number>()
  ;(file.resources ?? []).forEach((r, i) => {
    const first = firstProduct.get(r.productId)
    if (first === undefined) firstProduct.set(r.productId, i)
    else faults.push(`resources[${i}].productId: duplicate of resources[${first}] (productId "${r.productId}")`)
    if (!known(r.categoryCode))
      faults.push(`resources[${i}].categoryCode: no category "${r.categoryCode}" in the file or the database (productId "${r.productId}")`)
  })
  return faults
}

/** The file's categories with every parent before its children, so each parent id is known when needed. */
function parentsFirst(categories: readonly ImportCategory[]): ImportCategory[] {
  const byCode = new Map(categories.map((c) => [c.code, c]))
  const ordered: ImportCategory[] = []
  const placed = new Set<string>()
  const place = (c: ImportCategory) => {
    if (placed.has(c.code)) return
    placed.add(c.code)
    const parent = c.parentCode ? byCode.get(c.parentCode) : undefined
    if (parent) place(parent)
    ordered.push(c)
  }
  categories.forEach(place)
  return ordered
}

const differs = <T extends object>(stored: T, values: Partial<T>) =>
  (Object.keys(values) as (keyof T)[]).some((key) => stored[key] !== values[key])

/** Inserts or updates one row by its natural key, counting what happened; an identical row is left alone. */
function upsert<Row extends { id: number }>(
  stored: Row | undefined,
  values: Partial<Row>,
  insert: () => number,
  update: (id: number) => void,
  counts: Counts,
): { id: number; changed: boolean } {
  if (!stored) {
    counts.created++
    return { id: insert(), changed: true }
  }
  if (!differs(stored, values)) {
    counts.unchanged++
    return { id: stored.id, changed: false }
  }
  update(stored.id)
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

function write(tx: Tx, name: string, file: ImportFile, now: string): ImportCounts & { changedIds: number[] } {
  const storedCategories = new Map(
    tx
      .select()
      .from(resourceCategories)
      .all()
      .map((c) => [c.code, c]),
  )
  const codeById = new Map([...storedCategories.values()].map((c) => [c.id, c.code]))
  const faults = referenceFaults(file, storedCategories, (id) => codeById.get(id))
  if (faults.length) throw new ImportRefused(name, faults)

  const counts: ImportCounts = { categories: { created: 0, updated: 0, unchanged: 0 }, resources: { created: 0, updated: 0, unchanged: 0 } }
  const idByCode = new Map([...storedCategories.values()].map((c) => [c.code, c.id]))
  const changedCodes: string[] = []
  for (const c of parentsFirst(file.categories ?? [])) {
    const values = {
      code: c.code,
      parentId: c.parentCode ? idByCode.get(c.parentCode)! : null,
      nameEn: c.nameEn.trim(),
      nameZh: (c.nameZh ?? '').trim(),
      iconUrl: c.iconUrl ?? '',
      sort: c.sort ?? 0,
    }
    const { id, changed } = upsert(
      storedCategories.get(c.code),
      values,
      () =>
        tx
          .insert(resourceCategories)
          .values({ ...values, createdAt: now, updatedAt: now })
          .returning({ id: resourceCategories.id })
          .get().id,
      (id) =>
        tx
          .update(resourceCategories)
          .set({ ...values, updatedAt: now })
          .where(eq(resourceCategories.id, id))
          .run(),
      counts.categories,
    )
    idByCode.set(c.code, id)
    if (changed) changedCodes.push(c.code)
  }

  const storedResources = new Map<string, StoredResource>(
    tx
      .select()
      .from(resources)
      .all()
      .map((r) => [r.productId, r]),
  )
  const changedIds = new Set<number>()
  for (const r of file.resources ?? []) {
    const values = resourceValues(r)
    const { id, changed } = upsert(
      storedResources.get(r.productId),
      values,
      () =>
        tx
          .insert(resources)
          .values({ ...values, createdAt: now, updatedAt: now })
          .returning({ id: resources.id })
          .get().id,
      (id) =>
        tx
          .update(resources)
          .set({ ...values, updatedAt: now })
          .where(eq(resources.id, id))
          .run(),
      counts.resources,
    )
    if (changed) changedIds.add(id)
  }
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
  const file = parseImportFile(name, await source.text())
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const outcome = write(tx, name, file, formatTime(ctx.clock()))
    if (outcome.changedIds.length) record({ kind: 'resources', ids: outcome.changedIds })
    return outcome
  })
  return { categories: result.categories, resources: result.resources }
}
