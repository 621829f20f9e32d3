import { and, asc, count, desc, eq, gte, inArray, isNull, lte, ne, notExists, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Queryable } from '../../db/client.ts'
import { posts, postRevisions, postSchedules, postTags } from '../../db/schema/index.ts'
import type { Page } from '../../http/schema.ts'
import type { Language } from '../../shared/language.ts'
import { containing } from '../../shared/like.ts'
import type { PostCard } from './model.ts'
import { cardColumns, toPostCards } from './present.ts'
import { POST_STATUS } from './visibility.ts'

/** The console's list states (docs/editor.md): a draft with a pending publish schedule is `scheduled`. */
export const LIST_STATES = ['draft', 'scheduled', 'published', 'offline'] as const
export type ListState = (typeof LIST_STATES)[number]
export const LIST_SORTS = ['updated', 'created', 'title', 'seoScore', 'aeoScore'] as const
export type ListSort = (typeof LIST_SORTS)[number]

export interface AdminPostQuery {
  language?: Language
  state?: ListState
  categoryId?: number
  tagId?: number
  authorId?: number
  minScore?: number
  maxScore?: number
  keyword?: string
  sort: ListSort
  order: 'asc' | 'desc'
  current: number
  size: number
}

/** A row of the console's posts list: the card, its schedule, its translation partner and who saved it last. */
export type AdminPostRow = PostCard & {
  scheduledAt: string | null
  unpublishAt: string | null
  partner: { id: number; language: Language; slug: string; status: number } | null
  lastEditor: string
}

const pendingPublish = sql`exists (select 1 from ${postSchedules} where ${postSchedules.postId} = ${posts.id} and ${postSchedules.action} = 'publish')`

function stateFilter(state: ListState | undefined): SQL | undefined {
  if (state === 'published') return eq(posts.status, POST_STATUS.published)
  if (state === 'offline') return eq(posts.status, POST_STATUS.offline)
  if (state === 'scheduled') return and(ne(posts.status, POST_STATUS.published), pendingPublish)
  if (state === 'draft')
    return and(
      eq(posts.status, POST_STATUS.draft),
      notExists(sql`select 1 from ${postSchedules} where ${postSchedules.postId} = ${posts.id} and ${postSchedules.action} = 'publish'`),
    )
  return undefined
}

function where(query: AdminPostQuery): SQL | undefined {
  const keyword = query.keyword?.trim()
  const like = (column: SQLWrapper) => sql`${column} like ${containing(keyword ?? '')} escape '\\'`
  return and(
    isNull(posts.deletedAt),
    query.language ? eq(posts.language, query.language) : undefined,
    stateFilter(query.state),
    query.categoryId ? eq(posts.categoryId, query.categoryId) : undefined,
    query.authorId ? eq(posts.authorId, query.authorId) : undefined,
    query.tagId
      ? sql`exists (select 1 from ${postTags} where ${postTags.postId} = ${posts.id} and ${postTags.tagId} = ${query.tagId})`
      : undefined,
    query.minScore !== undefined ? gte(posts.seoScore, query.minScore) : undefined,
    query.maxScore !== undefined ? lte(posts.seoScore, query.maxScore) : undefined,
    keyword ? or(like(posts.title), like(posts.slug)) : undefined,
  )
}

const SORT_COLUMNS = {
  updated: posts.updatedAt,
  created: posts.createdAt,
  title: posts.title,
  seoScore: posts.seoScore,
  aeoScore: posts.aeoScore,
} as const

/** The other-language post each row names through `alternateSlug`, or that names it. */
function partnersOf(db: Queryable, rows: readonly { id: number; language: Language; slug: string; alternateSlug: string }[]) {
  const slugs = [...new Set(rows.flatMap((r) => [r.slug, r.alternateSlug]).filter(Boolean))]
  if (!slugs.length) return () => null
  const found = db
    .select({ id: posts.id, language: posts.language, slug: posts.slug, alternateSlug: posts.alternateSlug, status: posts.status })
    .from(posts)
    .where(and(isNull(posts.deletedAt), or(inArray(posts.slug, slugs), inArray(posts.alternateSlug, slugs))))
    .all()
  return (row: (typeof rows)[number]) => {
    const other = found.filter((p) => p.language !== row.language)
    const hit = (row.alternateSlug && other.find((p) => p.slug === row.alternateSlug)) || other.find((p) => p.alternateSlug === row.slug)
    return hit ? { id: hit.id, language: hit.language, slug: hit.slug, status: hit.status } : null
  }
}

/** `GET /api/admin/blog/posts`: every post that is not deleted, drafts included, filtered and sorted (docs/editor.md). */
export function listAdminPosts(db: Queryable, query: AdminPostQuery): Page<AdminPostRow> {
  const filter = where(query)
  const total = db.select({ n: count() }).from(posts).where(filter).get()?.n ?? 0
  const column = SORT_COLUMNS[query.sort]
  const rows = db
    .select(cardColumns)
    .from(posts)
    .where(filter)
    .orderBy(query.order === 'asc' ? asc(column) : desc(column), desc(posts.id))
    .limit(query.size)
    .offset((query.current - 1) * query.size)
    .all()
  const ids = rows.map((r) => r.id)
  const schedules = ids.length ? db.select().from(postSchedules).where(inArray(postSchedules.postId, ids)).all() : []
  const editors = ids.length
    ? db
        .select({ postId: postRevisions.postId, tokenName: postRevisions.tokenName, version: postRevisions.version })
        .from(postRevisions)
        .where(inArray(postRevisions.postId, ids))
        .orderBy(desc(postRevisions.version))
        .all()
    : []
  const partner = partnersOf(db, rows)
  const cards = toPostCards(db, rows)
  const due = (id: number, action: 'publish' | 'unpublish') => schedules.find((s) => s.postId === id && s.action === action)?.dueAt ?? null
  return {
    total,
    size: query.size,
    current: query.current,
    records: cards.map((card, i) => ({
      ...card,
      scheduledAt: due(card.id, 'publish'),
      unpublishAt: due(card.id, 'unpublish'),
      partner: partner(rows[i]!),
      lastEditor: editors.find((e) => e.postId === card.id)?.tokenName ?? '',
    })),
  }
}
