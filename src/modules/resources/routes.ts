import { Elysia } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { resourceCategoryTree, searchResources } from './catalogue.ts'
import { ResourceSearchReq } from './model.ts'

/** Business-resource lookup for product cards (spec §2.10, §4.1): token-protected reads. */
export const resourceRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'resources', prefix: '/api/v1/blog/resources' })
    .use(auth)
    .get('/categories', () => resourceCategoryTree(ctx.db), { scope: 'blog:read' })
    .post('/search', ({ body }) => searchResources(ctx.db, body), { body: ResourceSearchReq, scope: 'blog:read' })
