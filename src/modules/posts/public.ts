import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts, postTags } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import { NotFound } from '../../shared/errors.ts'
import type { Language } from '../../shared/language.ts'
import type { PostCard, PostRes } from './model.ts'
import { toPostCards, toPostRes } from './present.ts'
import { postByCurrentSlug, postByPreviousSlug } from './repo.ts'
import { discoverable, readable } from './visibility.ts'

export interface PostListQuery {
  language?: Language
  categoryId?: number
  authorId?: number
  tagId?: number
  keyword?: string
  current: number
  size: number
}

/** LIKE pattern with the user's % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function listFilter(query: PostListQuery): SQL | undefined {
  const keyword = query.keyword?.trim()
  const pattern = keyword ? containing(keyword) : ''
  return and(
    discoverable,
    query.language ? eq(posts.language, query.language) : undefined,
    query.categoryId ? eq(posts.categoryId, query.categoryId) : undefined,
    query.authorId ? eq(posts.authorId, query.authorId) : undefined,
    query.tagId
      ? sql`exists (select 1 from ${postTags} where ${postTags.postId} = ${posts.id} and ${postTags.tagId} = ${query.tagId})`
      : undefined,
    keyword
      ? or(
          sql`${posts.title} like ${pattern} escape '\\'`,
          sql`${posts.summary} like ${pattern} escape '\\'`,
          sql`${posts.slug} like ${pattern} escape '\\'`,
        )
      : undefined,
  )
}

/** `GET posts` (spec §4.2): discoverable posts, newest first, as cards. */
export function listPublicPosts(db: Queryable, query: PostListQuery): Page<PostCard> {
  const where = listFilter(query)
  const total = db.select({ n: count() }).from(posts).where(where).get()?.n ?? 0
  const rows = db
    .select()
    .from(posts)
    .where(where)
    .orderBy(desc(posts.publishedAt), desc(posts.id))
    .limit(query.size)
    .offset((query.current - 1) * query.size)
    .all()
  return { total, size: query.size, current: query.current, records: toPostCards(db, rows) }
}

export type PostDetail = { post: PostRes } | { movedTo: string }

/** `GET posts/{slug}`: the published post, or where an old slug of it moved (answered as 301). */
export function publicPostDetail(db: Queryable, slug: string, language: Language): PostDetail {
  const current = postByCurrentSlug(db, language, slug)
  if (current && current.status === 1 && !current.deletedAt) {
    // A case variant of the slug redirects to the canonical spelling.
    return current.slug === slug ? { post: toPostRes(db, current) } : { movedTo: current.slug }
  }
  const moved = postByPreviousSlug(db, language, slug)
  if (
    moved &&
    db
      .select({ id: posts.id })
      .from(posts)
      .where(and(eq(posts.id, moved.id), readable))
      .get()
  )
    return { movedTo: moved.slug }
  throw new NotFound('published post', slug, 'slug')
}
