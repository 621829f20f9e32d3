import { Elysia, t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { auth } from '../../http/auth.ts'
import { listEnabledCategories, saveCategory } from './categories.ts'
import { CategoryReq, TagLanguage, TagReq } from './model.ts'
import { listEnabledTags, saveTag } from './tags.ts'

export const taxonomyRoutes = (ctx: Ctx) =>
  new Elysia({ name: 'taxonomy', prefix: '/api/v1/blog' })
    .use(auth)
    .get('/categories', () => listEnabledCategories(ctx.db))
    .post('/categories/save', ({ body }) => saveCategory(ctx, body), { body: CategoryReq, scope: 'blog:write' })
    .get('/tags', ({ query }) => listEnabledTags(ctx.db, query.language), { query: t.Object({ language: t.Optional(TagLanguage) }) })
    .post('/tags/save', ({ body }) => saveTag(ctx, body), { body: TagReq, scope: 'blog:write' })
