import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import { Language, LIMITS, pageQuery, paging } from '../../http/schema.ts'
import { PostPage } from '../posts/model.ts'
import { listPublicPosts } from '../posts/public.ts'
import { authorDetail, enabledAuthorBySlug, listEnabledAuthors, saveAuthor } from './authors.ts'
import { AuthorReq, AuthorRes } from './model.ts'

const SlugParams = t.Object({ slug: t.String({ minLength: 1, maxLength: LIMITS.slug }) })

export const authorRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'authors', prefix: '/api/v1/blog/authors' })
    .use(auth)
    .get('/', ({ query }) => listEnabledAuthors(ctx.db, query.language), {
      query: t.Object({ language: t.Optional(Language) }),
      ...contract({ operationId: 'listAuthors', summary: 'Enabled authors', tag: 'public', data: t.Array(AuthorRes) }),
    })
    .post('/save', ({ body }) => saveAuthor(ctx, body), {
      body: AuthorReq,
      scope: 'blog:write',
      ...contract({ operationId: 'saveAuthor', summary: 'Create (no id) or update an author', tag: 'authors', data: AuthorRes }),
    })
    .get('/:slug', ({ params, query }) => authorDetail(ctx.db, params.slug, query.language ?? 'en'), {
      params: SlugParams,
      query: t.Object({ language: t.Optional(Language) }),
      ...contract({ operationId: 'getAuthor', summary: 'An enabled author', tag: 'public', data: AuthorRes }),
    })
    .get(
      '/:slug/posts',
      ({ params, query }) => {
        const language = query.language ?? 'en'
        const author = enabledAuthorBySlug(ctx.db, params.slug, language)
        return listPublicPosts(ctx.db, { authorId: author.id, language, ...paging(query, 12) })
      },
      {
        params: SlugParams,
        query: t.Object({ language: t.Optional(Language), ...pageQuery }),
        ...contract({ operationId: 'listAuthorPosts', summary: "An enabled author's published posts", tag: 'public', data: PostPage }),
      },
    )
