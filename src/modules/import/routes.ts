import { Elysia, t } from 'elysia'
import { auth } from '../../http/auth.ts'
import { PRIVATE_CACHE } from '../../http/headers.ts'
import { IdParam } from '../../http/schema.ts'
import { invalidField } from '../../shared/errors.ts'
import type { ImportRunner } from './runs.ts'

const ById = { params: t.Object({ id: IdParam }), scope: 'blog:admin' } as const

const choice = <T extends string>(values: readonly T[], description: string) =>
  t.Optional(t.Union(values.map((v) => t.Literal(v)) as never, { description }))

const ImportStart = t.Object({
  file: t.File({ description: 'a WordPress WXR (.xml), a Ghost export (.json), a Folio archive (.tar.gz) or a tar of a Markdown folder' }),
  format: t.Union([t.Literal('wordpress'), t.Literal('ghost'), t.Literal('markdown'), t.Literal('folio')]),
  language: choice(['en', 'zh', 'auto'], 'the posts’ language (default auto)'),
  status: choice(['keep', 'gate'], 'keep: public stays public; gate: a post with a blocking SEO item comes in as a draft (default keep)'),
  media: choice(['keep', 'fetch'], 'fetch: download the images into the media store (default keep)'),
  dryRun: choice(['0', '1'], '1: everything but the writes, same report'),
})

/**
 * The console's import (docs/import-export.md, "From the console"): start a run in the server's
 * background with an upload, poll its state and progress, read and download its report.
 * Owners and admins only (`blog:admin`).
 */
export const importRoutes = (runner: ImportRunner, maxUploadBytes: number) =>
  new Elysia({ name: 'imports.admin', prefix: '/api/admin/blog/imports' })
    .use(auth)
    .post(
      '/start',
      async ({ body, caller }) => {
        if (body.file.size > maxUploadBytes)
          throw invalidField('file', `larger than MAX_UPLOAD_BYTES (${maxUploadBytes} bytes): use the CLI`)
        const options = {
          language: body.language ?? 'auto',
          status: body.status ?? 'keep',
          media: body.media ?? 'keep',
          dryRun: body.dryRun === '1',
        } as const
        return runner.start(body.format, body.file.name || 'upload', new Uint8Array(await body.file.arrayBuffer()), options, caller.name)
      },
      { body: ImportStart, scope: 'blog:admin' },
    )
    .get('/', () => runner.list(), { scope: 'blog:admin' })
    .get('/:id', ({ params }) => runner.get(Number(params.id)), ById)
    .get(
      '/:id/report',
      ({ params }) => {
        const text = runner.reportText(Number(params.id))
        if (text === null) throw invalidField('id', 'this import has no report (still running, or it failed)')
        return new Response(text, {
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'content-disposition': `attachment; filename="folio-import-${params.id}-report.json"`,
            'cache-control': PRIVATE_CACHE,
          },
        })
      },
      ById,
    )
