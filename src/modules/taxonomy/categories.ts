import { and, asc, eq, ne, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { categories } from '../../db/schema/index.ts'
import { NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import type { CategoryReq, CategoryRes } from './model.ts'
import { resolveSlug } from './slugs.ts'

type CategoryRow = typeof categories.$inferSelect

export const toCategoryRes = (row: CategoryRow): CategoryRes => ({
  id: row.id,
  slug: row.slug,
  nameEn: row.nameEn,
  nameZh: row.nameZh,
  descriptionEn: row.descriptionEn,
  descriptionZh: row.descriptionZh,
  sort: row.sort,
  status: row.status,
})

export async function saveCategory(ctx: Ctx, req: CategoryReq): Promise<CategoryRes> {
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const existing = req.id ? tx.select().from(categories).where(eq(categories.id, req.id)).get() : undefined
    if (req.id && !existing) throw new NotFound('category', req.id)
    const taken = (slug: string) =>
      !!tx
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.slug, slug), ne(categories.id, req.id ?? 0)))
        .get()
    const slug = req.slug?.trim() || !existing ? resolveSlug(req.slug, req.nameEn, 'category', taken) : existing.slug
    const values = {
      slug,
      nameEn: req.nameEn.trim(),
      nameZh: req.nameZh?.trim() ?? existing?.nameZh ?? '',
      descriptionEn: req.descriptionEn ?? existing?.descriptionEn ?? '',
      descriptionZh: req.descriptionZh ?? existing?.descriptionZh ?? '',
      sort: req.sort ?? existing?.sort ?? 0,
      status: req.status ?? existing?.status ?? 1,
      updatedAt: formatTime(ctx.clock()),
    }
    const saved = existing
      ? tx.update(categories).set(values).where(eq(categories.id, existing.id)).returning().get()
      : tx
          .insert(categories)
          .values({ ...values, createdAt: values.updatedAt })
          .returning()
          .get()
    record({ kind: 'category', id: saved.id })
    return saved
  })
  return toCategoryRes(result)
}

const categoriesInOrder = (db: Queryable, where?: SQL): CategoryRes[] =>
  db.select().from(categories).where(where).orderBy(asc(categories.sort), asc(categories.id)).all().map(toCategoryRes)

/** Enabled categories in display order (spec §4.2). */
export const listEnabledCategories = (db: Queryable): CategoryRes[] => categoriesInOrder(db, eq(categories.status, 1))

/** Every category, disabled ones too, in display order: the console's list. */
export const listAllCategories = (db: Queryable): CategoryRes[] => categoriesInOrder(db)
