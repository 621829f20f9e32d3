import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import { expectedVersion, IfMatchHeaders } from '../../http/if-match.ts'
import { IdParam, Language, LIMITS } from '../../http/schema.ts'
import { NotFound } from '../../shared/errors.ts'
import { warnStale } from '../posts/routes.ts'
import { PageCardRes, PageRes, PageSaveReq } from './model.ts'
import { allPages, pageById, pageBySlug, publishedPages, toPageCardRes, toPageRes } from './repo.ts'
import { savePage } from './save.ts'
import { deletePage, setPageStatus } from './status.ts'

/**
 * Standalone pages, an additive extension of the API (docs/pages.md): anonymous reads of the
 * published pages, writes with the posts' scopes (`blog:write` to save a draft, `blog:publish`
 * to make or keep one public), and the writer's reads of drafts under /api/admin.
 */
const PREFIX = '/api/v1/blog/pages'
const VERSION_REFUSAL = { 412: 'VERSION_CONFLICT: the page changed since that version; `data` holds currentVersion and updatedTime' }
const ById = { params: t.Object({ id: IdParam }), headers: IfMatchHeaders } as const
const LanguageQuery = t.Object({ language: t.Optional(Language) })

export const publicPageRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'pages.public', prefix: PREFIX })
    .get('/', ({ query }) => publishedPages(ctx.db, query.language).map((row) => toPageCardRes(row, ctx.config.siteUrl)), {
      query: LanguageQuery,
      ...contract({
        operationId: 'listPages',
        summary: 'Published standalone pages (extension), in navigation order',
        tag: 'public',
        data: t.Array(PageCardRes),
      }),
    })
    .get(
      '/:id',
      ({ params, query }) => {
        const language = query.language ?? 'en'
        const row = pageBySlug(ctx.db, language, params.id)
        if (!row || row.status !== 1) throw new NotFound('page', params.id, 'slug')
        return toPageRes(row, ctx.config.siteUrl)
      },
      {
        params: t.Object({ id: t.String({ minLength: 1, maxLength: LIMITS.slug }) }),
        query: LanguageQuery,
        ...contract({
          operationId: 'getPage',
          summary: 'A published standalone page by slug (extension)',
          tag: 'public',
          data: PageRes,
          pathParams: { id: 'slug' },
        }),
      },
    )

/** `POST pages/{id}/publish` and `…/unpublish`: one route shape, two statuses. */
const statusRoute = (ctx: Ctx, verb: string, status: 0 | 1, operationId: string, summary: string) =>
  new Elysia({ name: `pages.${verb}` }).use(auth).post(
    `/:id/${verb}`,
    async ({ params, request, set }) => {
      const { page, artifactsFailed } = await setPageStatus(ctx, Number(params.id), status, expectedVersion(request.headers))
      warnStale(set, artifactsFailed)
      return page
    },
    { ...ById, scope: 'blog:publish', ...contract({ operationId, summary, tag: 'pages', data: PageRes, refusals: VERSION_REFUSAL }) },
  )

export const writePageRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'pages.write', prefix: PREFIX })
    .use(auth)
    .post(
      '/save',
      ({ body, caller, request }) => savePage(ctx, caller, { ...body, version: expectedVersion(request.headers, body.version) }),
      {
        body: PageSaveReq,
        headers: IfMatchHeaders,
        scope: 'blog:write',
        ...contract({
          operationId: 'savePage',
          summary: 'Create (no id) or update a standalone page (extension)',
          description:
            'A save whose result is published (`status` 1) also needs `blog:publish`. Send `contentHtml` or `contentMarkdown` (exactly one). `If-Match: "<version>"` (or the body\'s `version`) makes it conditional.',
          tag: 'pages',
          data: PageRes,
          refusals: VERSION_REFUSAL,
        }),
      },
    )
    .use(statusRoute(ctx, 'publish', 1, 'publishPage', 'Publish a page (extension)'))
    .use(statusRoute(ctx, 'unpublish', 0, 'unpublishPage', 'Take a page back to draft: its URL answers 404 (extension)'))
    .post(
      '/:id/delete',
      async ({ params, request, set }) => {
        warnStale(set, (await deletePage(ctx, Number(params.id), expectedVersion(request.headers))).artifactsFailed)
        return true
      },
      {
        ...ById,
        scope: 'blog:publish',
        ...contract({
          operationId: 'deletePage',
          summary: 'Delete a page for good (extension)',
          tag: 'pages',
          data: t.Boolean(),
          refusals: VERSION_REFUSAL,
        }),
      },
    )

/** The writer's reads (drafts included), scope `blog:read`; never cached. */
export const adminPageRoutes = (ctx: Ctx) =>
  adminRoutes('pages.admin', '/api/admin/blog/pages')
    .get('/', ({ query }) => allPages(ctx.db, query.language).map((row) => toPageCardRes(row, ctx.config.siteUrl)), {
      query: LanguageQuery,
      scope: 'blog:read',
    })
    .get('/:id', ({ params }) => toPageRes(pageById(ctx.db, Number(params.id)), ctx.config.siteUrl), {
      params: t.Object({ id: IdParam }),
      scope: 'blog:read',
    })
