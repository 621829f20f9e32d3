import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import type { Queryable } from '../../db/client.ts'
import { contract } from '../../http/contract.ts'
import { Language, LIMITS, pageQuery, paging } from '../../http/schema.ts'
import { PostPage } from '../posts/model.ts'
import { listPublicPosts } from '../posts/public.ts'

export const SEARCH_PATH = '/api/v1/blog/search'

export const SearchQuery = t.Object({
  q: t.String({
    minLength: 1,
    maxLength: LIMITS.name,
    description: 'words to find in title, summary, slug or body; Chinese needs no spaces',
  }),
  language: t.Optional(Language),
  ...pageQuery,
})

export type SearchQuery = typeof SearchQuery.static

/** Discoverable posts holding every word of `q`, most relevant first: the route's and the MCP tool's verb. */
export const searchPosts = (db: Queryable, query: SearchQuery) =>
  listPublicPosts(db, { language: query.language, search: query.q, ...paging(query, 10) })

/**
 * `GET search` (an extension, docs/search.md): discoverable posts whose title, summary, slug or
 * body hold every word of `q`, most relevant first (bm25 over the FTS5 index, a title hit weighing
 * most), as the same post page `GET posts` answers.
 */
export const searchRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'search.public' }).get(SEARCH_PATH, ({ query }) => searchPosts(ctx.db, query), {
    query: SearchQuery,
    ...contract({
      operationId: 'searchPosts',
      summary: 'Full-text search of published posts, most relevant first',
      tag: 'public',
      data: PostPage,
    }),
  })
