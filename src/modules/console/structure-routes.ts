import { t } from 'elysia'
import type { Ctx } from '../../context.ts'
import { adminRoutes } from '../../http/admin-routes.ts'
import { IdParam } from '../../http/schema.ts'
import { listAllAuthors } from '../authors/authors.ts'
import { listAudit } from '../people/audit.ts'
import { ImportRefused } from '../resources/import-file.ts'
import { importResourcesText, MAX_IMPORT_BYTES } from '../resources/import.ts'
import { listAllCategories } from '../taxonomy/categories.ts'
import { listAllTags } from '../taxonomy/tags.ts'

const AuditFilter = t.Object({
  user: t.Optional(IdParam),
  action: t.Optional(t.String({ maxLength: 200 })),
  ip: t.Optional(t.String({ maxLength: 64 })),
  since: t.Optional(
    t.String({
      pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?$',
      description: 'a UTC date YYYY-MM-DD, optionally with HH:MM[:SS]',
    }),
  ),
  before: t.Optional(IdParam),
  size: t.Optional(t.String({ pattern: '^([1-9]|[1-9][0-9]|100)$', description: 'a whole number from 1 to 100' })),
})

/**
 * What the console's content-structure pages read beyond the public API: every category, tag
 * and author (disabled ones too, so they can be enabled again), the resources import as an
 * upload (the CLI's `resources import` over HTTP), and the audit log. Writes go through the
 * API's own save routes, so the call log and the audit log see them.
 */
export const structureRoutes = (ctx: Ctx) =>
  adminRoutes('console.structure')
    .get('/api/admin/blog/categories', () => listAllCategories(ctx.db), { scope: 'blog:write' })
    .get('/api/admin/blog/tags', () => listAllTags(ctx.db), { scope: 'blog:write' })
    .get('/api/admin/blog/authors', () => listAllAuthors(ctx.db), { scope: 'blog:write' })
    .post(
      '/api/admin/blog/resources/import',
      async ({ body }) => {
        const name = body.file.name || 'upload.json'
        if (body.file.size > MAX_IMPORT_BYTES) throw new ImportRefused(name, [`the file is larger than ${MAX_IMPORT_BYTES} bytes`])
        return importResourcesText(ctx, name, await body.file.text())
      },
      {
        body: t.Object({ file: t.File({ description: 'the catalogue, in the import format of docs/resources.md' }) }),
        scope: 'blog:admin',
      },
    )
    .get(
      '/admin/api/audit',
      ({ query }) =>
        listAudit(ctx.db, {
          userId: query.user ? Number(query.user) : undefined,
          action: query.action?.trim() || undefined,
          ip: query.ip?.trim() || undefined,
          since: query.since,
          before: query.before ? Number(query.before) : undefined,
          size: query.size ? Number(query.size) : 50,
        }),
      { query: AuditFilter, scope: 'blog:admin' },
    )
