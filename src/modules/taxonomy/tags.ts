import { and, asc, eq, inArray, ne } from 'drizzle-orm'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { tags } from '../../db/schema/index.ts'
import { invalidField, NotFound } from '../../shared/errors.ts'
import { formatTime } from '../../shared/time.ts'
import type { TagReq, TagRes } from './model.ts'
import { resolveSlug } from './slugs.ts'

type TagRow = typeof tags.$inferSelect

export const toTagRes = (row: TagRow): TagRes => ({
  id: row.id,
  slug: row.slug,
  nameEn: row.nameEn,
  nameZh: row.nameZh,
  language: row.language,
  status: row.status,
})

export async function saveTag(ctx: Ctx, req: TagReq): Promise<TagRes> {
  const nameEn = req.nameEn?.trim() ?? ''
  const nameZh = req.nameZh?.trim() ?? ''
  const { result } = await ctx.changes.write(ctx.db, (tx, record) => {
    const existing = req.id ? tx.select().from(tags).where(eq(tags.id, req.id)).get() : undefined
    if (req.id && !existing) throw new NotFound('tag', req.id)
    const names = { nameEn: nameEn || existing?.nameEn || '', nameZh: nameZh || existing?.nameZh || '' }
    if (!names.nameEn && !names.nameZh) throw invalidField('nameEn', 'a tag needs nameEn or nameZh')
    const taken = (slug: string) =>
      !!tx
        .select({ id: tags.id })
        .from(tags)
        .where(and(eq(tags.slug, slug), ne(tags.id, req.id ?? 0)))
        .get()
    const slug = req.slug?.trim() || !existing ? resolveSlug(req.slug, names.nameEn || names.nameZh, 'tag', taken) : existing.slug
    const values = {
      slug,
      ...names,
      language: req.language,
      status: req.status ?? existing?.status ?? 1,
      updatedAt: formatTime(ctx.clock()),
    }
    const saved = existing
      ? tx.update(tags).set(values).where(eq(tags.id, existing.id)).returning().get()
      : tx
          .insert(tags)
          .values({ ...values, createdAt: values.updatedAt })
          .returning()
          .get()
    record({ kind: 'tag', id: saved.id })
    return saved
  })
  return toTagRes(result)
}

/**
 * Enabled tags. `en`/`zh` give that language's tags and the language-neutral (`all`) ones;
 * `all` gives only the language-neutral ones; no filter gives every enabled tag.
 */
export function listEnabledTags(db: Queryable, language?: 'all' | 'en' | 'zh'): TagRes[] {
  const languages = language === undefined ? ['all', 'en', 'zh'] : language === 'all' ? ['all'] : ['all', language]
  return db
    .select()
    .from(tags)
    .where(and(eq(tags.status, 1), inArray(tags.language, languages as TagRow['language'][])))
    .orderBy(asc(tags.id))
    .all()
    .map(toTagRes)
}

/** Every tag, disabled ones too: the console's list. */
export const listAllTags = (db: Queryable): TagRes[] => db.select().from(tags).orderBy(asc(tags.id)).all().map(toTagRes)
