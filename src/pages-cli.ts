import { options, positiveId, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import type { compose } from './main.ts'
import { allPages } from './modules/pages/repo.ts'

type Service = Awaited<ReturnType<typeof compose>>

/** `cli pages list|publish|unpublish|delete` (docs/pages.md): the API's page verbs for scripts and operators. */
export const pageListing: Record<string, CliCommand<CliService>> = {
  'pages list': ({ ctx }, args) => {
    const { values } = options(args, { language: { type: 'string' } })
    if (values.language !== undefined && values.language !== 'en' && values.language !== 'zh')
      throw new UsageError(`--language must be en or zh, got "${values.language}"`)
    console.log(['id', 'language', 'slug', 'status', 'nav', 'order', 'version', 'updated', 'title'].join('\t'))
    for (const p of allPages(ctx.db, values.language))
      console.log(
        [
          p.id,
          p.language,
          p.slug,
          p.status === 1 ? 'published' : 'draft',
          p.navPlacement,
          p.navOrder,
          p.version,
          p.updatedAt,
          p.title.replace(/[\u0000-\u001f\u007f]+/g, ' '),
        ].join('\t'),
      )
  },
}

/** The page verbs announce their change: they run over the whole service, so the site re-renders. */
export const pageCommands: Record<string, CliCommand<Service>> = {
  // status.ts (and the renderer behind it) loaded when a page verb runs, so `pages list` stays light (cli.ts).
  'pages publish': async ({ ctx }, args) => {
    const { setPageStatus } = await import('./modules/pages/status.ts')
    const { page } = await setPageStatus(ctx, positiveId(args[0]), 1, null)
    console.log(`published page ${page.id}: ${page.url}`)
  },
  'pages unpublish': async ({ ctx }, args) => {
    const { setPageStatus } = await import('./modules/pages/status.ts')
    const { page } = await setPageStatus(ctx, positiveId(args[0]), 0, null)
    console.log(`unpublished page ${page.id} (${page.language}/${page.slug}): now a draft`)
  },
  'pages delete': async ({ ctx }, args) => {
    const { deletePage } = await import('./modules/pages/status.ts')
    const id = positiveId(args[0])
    await deletePage(ctx, id, null)
    console.log(`deleted page ${id}`)
  },
}
