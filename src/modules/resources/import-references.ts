import type { resourceCategories } from '../../db/schema/index.ts'
import type { ImportCategory, ImportFile } from './import-file.ts'

type StoredCategory = typeof resourceCategories.$inferSelect

/**
 * Faults only the whole picture shows: repeated keys, codes naming no category in the file or the
 * database, and parent chains that loop (counting stored parents the file does not change).
 */
export function referenceFaults(
  file: ImportFile,
  stored: ReadonlyMap<string, StoredCategory>,
  storedCodeOf: (id: number) => string | undefined,
) {
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
export function parentsFirst(categories: readonly ImportCategory[]): ImportCategory[] {
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
