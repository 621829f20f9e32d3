import { and, asc, count, eq, inArray, ne, or, sql, type AnyColumn, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { idIn, preparedOnce } from '../../db/prepared.ts'
import { resourceCategories, resources } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { containing } from '../../shared/like.ts'
import { RESOURCE_LIMITS, RESOURCE_STATUS, type ResourceCategoryRes, type ResourceRes, type ResourceSearchReq } from './model.ts'
import { toResourceRes, type ResourceRow } from './present.ts'

/** `GET resources/categories`: the whole tree, each level in `sort` order (then id). */
export function resourceCategoryTree(db: Queryable): ResourceCategoryRes[] {
  const rows = db.select().from(resourceCategories).orderBy(asc(resourceCategories.sort), asc(resourceCategories.id)).all()
  const nodes = new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, code: r.code, nameEn: r.nameEn, nameZh: r.nameZh, iconUrl: r.iconUrl, children: [] as ResourceCategoryRes[] },
    ]),
  )
  const roots: ResourceCategoryRes[] = []
  for (const row of rows) {
    const node = nodes.get(row.id)!
    const parent = row.parentId === null ? undefined : nodes.get(row.parentId)
    ;(parent ? parent.children : roots).push(node)
  }
  return roots
}

const like = (column: AnyColumn, pattern: string) => sql`${column} like ${pattern} escape '\\'`

/** One keyword matches the internal id exactly, or the source id, a name or a description's text in either language. */
function matchesTerm(term: string): SQL {
  const pattern = containing(term)
  const columns = [resources.productId, resources.nameEn, resources.nameZh, resources.descriptionTextEn, resources.descriptionTextZh]
  return or(/^[1-9]\d{0,15}$/.test(term) ? eq(resources.id, Number(term)) : undefined, ...columns.map((c) => like(c, pattern)))!
}

/** Codes of a category and all its descendants, as a recursive CTE over `parent_id` (`union`, so even a looping tree ends). */
function withinCategory(db: Queryable, code: string): SQL {
  if (!db.select({ id: resourceCategories.id }).from(resourceCategories).where(eq(resourceCategories.code, code)).get())
    throw new NotFound('resource category', code, 'categoryCode')
  return sql`${resources.categoryCode} in (
    with recursive subtree(id, code) as (
      select id, code from resource_categories where code = ${code}
      union
      select c.id, c.code from resource_categories c join subtree s on c.parent_id = s.id
    )
    select code from subtree)`
}

function searchFilter(db: Queryable, req: ResourceSearchReq): SQL | undefined {
  const terms = (req.keywords ?? '').split(/\s+/).filter(Boolean)
  if (terms.length > RESOURCE_LIMITS.searchTerms) throw invalidField('keywords', `at most ${RESOURCE_LIMITS.searchTerms} words`)
  const code = req.categoryCode?.trim()
  return and(
    eq(resources.status, req.status ?? RESOURCE_STATUS.active),
    req.sourceType === undefined || req.sourceType === null ? undefined : eq(resources.sourceType, req.sourceType),
    code ? withinCategory(db, code) : undefined,
    ...terms.map(matchesTerm),
  )
}

const withCategory = (db: Queryable) =>
  db
    .select({ resource: resources, category: { nameEn: resourceCategories.nameEn, nameZh: resourceCategories.nameZh } })
    .from(resources)
    .leftJoin(resourceCategories, eq(resourceCategories.code, resources.categoryCode))

const present = (rows: { resource: ResourceRow; category: { nameEn: string; nameZh: string } | null }[]) =>
  rows.map((r) => toResourceRes(r.resource, r.category))

/**
 * `POST resources/search` (spec §2.10): every keyword (whitespace-separated) must match, the
 * filters narrow, results come in catalogue (id) order.
 */
export function searchResources(db: Queryable, req: ResourceSearchReq): Page<ResourceRes> {
  const current = req.current ?? 1
  const size = req.size ?? RESOURCE_LIMITS.defaultPageSize
  const where = searchFilter(db, req)
  const total = db.select({ n: count() }).from(resources).where(where).get()?.n ?? 0
  const rows = withCategory(db)
    .where(where)
    .orderBy(asc(resources.id))
    .limit(size)
    .offset((current - 1) * size)
    .all()
  return { total, size, current, records: present(rows) }
}

/** The ids of a `relatedProductIds` list (already normalized: digits, comma-separated, no repeats). */
const idsOf = (list: string | undefined) => (list ? list.split(',') : [])

/** Refuses a `relatedProductIds` list naming a resource that does not exist (offline ones exist). */
export function requireResources(db: Queryable, list: string | undefined): void {
  const ids = idsOf(list)
  if (!ids.length) return
  const found = new Set(
    db
      .select({ id: resources.id })
      .from(resources)
      .where(inArray(resources.id, ids.map(Number)))
      .all()
      .map((r) => String(r.id)),
  )
  const unknown = ids.filter((id) => !found.has(id))
  if (unknown.length) throw invalidField('relatedProductIds', `no resource(s) ${unknown.join(', ')}`)
}

/** The shown (not offline) resources among a JSON array of ids: one statement, whatever the count. */
const shownAmong = preparedOnce((db) =>
  withCategory(db)
    .where(and(idIn(resources.id), ne(resources.status, RESOURCE_STATUS.offline)))
    .prepare(),
)

/**
 * The resources of many `relatedProductIds` lists, each in its order, for cards: one query for
 * them all. Offline ones are left out: a post's response is also its public page, which must not
 * promote a withdrawn product; the id stays in the list, so the card returns when the product does.
 */
export function relatedResources(db: Queryable, lists: readonly string[]): ResourceRes[][] {
  const idLists = lists.map((list) => [...new Set(idsOf(list).map(Number))])
  const wanted = [...new Set(idLists.flat())]
  if (!wanted.length) return idLists.map(() => [])
  const shown = new Map(
    shownAmong(db)
      .all({ ids: JSON.stringify(wanted) })
      .map((r) => [r.resource.id, toResourceRes(r.resource, r.category)]),
  )
  return idLists.map((ids) => ids.flatMap((id) => shown.get(id) ?? []))
}
