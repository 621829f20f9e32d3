import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { contract } from '../../http/contract.ts'
import { listEnabledCategories, saveCategory } from './categories.ts'
import { CategoryReq, CategoryRes, TagLanguage, TagReq, TagRes } from './model.ts'
import { listEnabledTags, saveTag } from './tags.ts'

export const taxonomyRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'taxonomy', prefix: '/api/v1/blog' })
    .use(auth)
    .get('/categories', () => listEnabledCategories(ctx.db), {
      ...contract({ operationId: 'listCategories', summary: 'Enabled categories', tag: 'public', data: t.Array(CategoryRes) }),
    })
    .post('/categories/save', ({ body }) => saveCategory(ctx, body), {
      body: CategoryReq,
      scope: 'blog:write',
      ...contract({ operationId: 'saveCategory', summary: 'Create (no id) or update a category', tag: 'taxonomy', data: CategoryRes }),
    })
    .get('/tags', ({ query }) => listEnabledTags(ctx.db, query.language), {
      query: t.Object({ language: t.Optional(TagLanguage) }),
      ...contract({ operationId: 'listTags', summary: 'Enabled tags', tag: 'public', data: t.Array(TagRes) }),
    })
    .post('/tags/save', ({ body }) => saveTag(ctx, body), {
      body: TagReq,
      scope: 'blog:write',
      ...contract({ operationId: 'saveTag', summary: 'Create (no id) or update a tag', tag: 'taxonomy', data: TagRes }),
    })
