import { asc, eq } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { categories, postTags, tags } from '../../db/schema/index.ts'

/** A category or tag as a webhook payload names it: enough to file the post without a second call. */
export interface TermRef {
  id: number
  slug: string
  nameEn: string
  nameZh: string
}

export interface PostFacts {
  category: TermRef | null
  tags: TermRef[]
}

/** The post's category and tags, read inside the transaction that queues its event. */
export function postFacts(tx: Queryable, post: { id: number; categoryId: number }): PostFacts {
  const category = tx
    .select({ id: categories.id, slug: categories.slug, nameEn: categories.nameEn, nameZh: categories.nameZh })
    .from(categories)
    .where(eq(categories.id, post.categoryId))
    .get()
  const tagRows = tx
    .select({ id: tags.id, slug: tags.slug, nameEn: tags.nameEn, nameZh: tags.nameZh })
    .from(postTags)
    .innerJoin(tags, eq(tags.id, postTags.tagId))
    .where(eq(postTags.postId, post.id))
    .orderBy(asc(tags.id))
    .all()
  return { category: category ?? null, tags: tagRows }
}

/** A webhook's time: UTC with its offset written out (`2026-03-01T10:00:00+00:00`), unambiguous for any receiver. */
export const eventTime = (date: Date): string => `${date.toISOString().slice(0, 19)}+00:00`
