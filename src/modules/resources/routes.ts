import { Elysia } from 'elysia'
import type { Ctx } from '../../context.ts'
import { t } from 'elysia'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import { resourceCategoryTree, searchResources } from './catalogue.ts'
import { ResourceCategoryRes, ResourcePage, ResourceSearchReq } from './model.ts'

/** Business-resource lookup for product cards (spec §2.10, §4.1): token-protected reads. */
export const resourceRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'resources', prefix: '/api/v1/blog/resources' })
    .use(auth)
    .get('/categories', () => resourceCategoryTree(ctx.db), {
      scope: 'blog:read',
      ...contract({
        operationId: 'listResourceCategories',
        summary: 'Business resource categories (a tree)',
        tag: 'resources',
        data: t.Array(ResourceCategoryRes),
      }),
    })
    .post('/search', ({ body }) => searchResources(ctx.db, body), {
      body: ResourceSearchReq,
      scope: 'blog:read',
      ...contract({ operationId: 'searchResources', summary: 'Search business resources', tag: 'resources', data: ResourcePage }),
    })
