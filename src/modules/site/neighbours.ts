import { and, asc, desc, sql } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { preparedOnce } from '../../db/prepared.ts'
import { posts } from '../../db/schema/index.ts'
import type { Language } from '../../shared/language.ts'
import { approvedComments } from '../engagement/engagement.ts'
import type { PublicCommentRes } from '../engagement/model.ts'
import { publishedAfter, publishedBefore, sameCategoryAsPlaceholders } from '../posts/visibility.ts'

/**
 * A post page's way on: the previous post is the first of its related posts (the next older of
 * its category), the next one the next newer of its category, found here on the
 * `(listed, category_id, published_at, id)` index. So the oldest post of a category leads on
 * to a newer one, and only a category's one post has neither (its page still links the category).
 */
export interface Neighbour {
  slug: string
  title: string
}

interface Place {
  id: number
  language: string
  categoryId: number
  publishedAt: string | null
}

const statements = preparedOnce((db) => {
  const at = sql.placeholder('publishedAt')
  const id = sql.placeholder('id')
  // The one post nearest this place on the index, in the given direction.
  const nearest = (newer: boolean) => {
    const order = newer ? asc : desc
    return db
      .select({ language: posts.language, slug: posts.slug, title: posts.title })
      .from(posts)
      .where(and(sameCategoryAsPlaceholders, newer ? publishedAfter(at, id) : publishedBefore(at, id)))
      .orderBy(order(posts.publishedAt), order(posts.id))
      .limit(1)
      .prepare()
  }
  return { newer: nearest(true), older: nearest(false) }
})

const bind = (place: Place) => ({ id: place.id, language: place.language, categoryId: place.categoryId, publishedAt: place.publishedAt })

/** The next newer discoverable post of the post's category and language; none for a post not yet published. */
function nextInCategory(db: Queryable, post: Place): Neighbour | null {
  if (!post.publishedAt) return null
  const row = statements(db).newer.get(bind(post))
  return row ? { slug: row.slug, title: row.title } : null
}

/** The post whose page names this one as its next (the next older of its category): a change here re-renders it. */
export function previousInCategory(db: Queryable, post: Place): { language: Language; slug: string } | null {
  if (!post.publishedAt) return null
  const row = statements(db).older.get(bind(post))
  return row ? { language: row.language, slug: row.slug } : null
}

/** What a post page shows beyond the post itself: where to go next, and the approved comments. */
export interface PostExtras {
  next: Neighbour | null
  comments: PublicCommentRes[]
}

export const NO_EXTRAS: PostExtras = { next: null, comments: [] }

export const postExtrasOf = (db: Queryable, post: Place): PostExtras => ({
  next: nextInCategory(db, post),
  comments: approvedComments(db, post.id, post.language as Language),
})
