import { t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { IdParam } from '../../http/schema.ts'
import { rotateToken, tokenCalls } from './admin.ts'
import { SCOPES } from './scopes.ts'
import { createToken, listTokens, revokeToken } from './tokens.ts'

const ById = { params: t.Object({ id: IdParam }), scope: 'blog:admin' } as const

/**
 * The admin area's tokens (docs/admin.md, "Tokens"), scope `blog:admin`: what `cli token …` does,
 * for the console and for scripts. A new or rotated token's plain value is in this one answer only.
 */
export const tokenRoutes = (ctx: Ctx) =>
  adminRoutes('tokens.admin', '/api/admin/blog/tokens')
    .get('/', () => listTokens(ctx.db), { scope: 'blog:admin' })
    .post('/save', ({ body }) => createToken(ctx.db, body.name, [...new Set(body.scopes)]), {
      scope: 'blog:admin',
      body: t.Object({
        name: t.String({ minLength: 1, maxLength: 100 }),
        scopes: t.Array(t.Union(SCOPES.map((s) => t.Literal(s))), { minItems: 1, maxItems: SCOPES.length }),
      }),
    })
    .post('/:id/revoke', ({ params }) => revokeToken(ctx.db, Number(params.id), ctx.clock()), ById)
    .post('/:id/rotate', ({ params }) => ctx.db.transaction((tx) => rotateToken(tx, Number(params.id), ctx.clock())), ById)
    .get(
      '/:id/calls',
      ({ params, query }) =>
        tokenCalls(ctx.db, {
          tokenId: Number(params.id),
          outcome: query.outcome,
          method: query.method,
          path: query.path,
          before: query.before ? Number(query.before) : undefined,
          size: query.size ? Number(query.size) : 50,
        }),
      {
        ...ById,
        query: t.Object({
          outcome: t.Optional(t.Union([t.Literal('ok'), t.Literal('failed')])),
          method: t.Optional(t.String({ maxLength: 10, pattern: '^[A-Za-z]+$' })),
          path: t.Optional(t.String({ maxLength: 200 })),
          before: t.Optional(IdParam),
          size: t.Optional(t.String({ pattern: '^(?:[1-9]|[1-9][0-9]|100)$' })),
        }),
      },
    )
