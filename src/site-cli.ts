import { options, UsageError, type CliCommand } from './cli-args.ts'
import type { Config } from './config.ts'
import type { compose } from './main.ts'
import { describeBackup, restoreBackup } from './operations/backup.ts'
import { importResources, type Counts } from './modules/resources/import.ts'
import { savePublicationSettings } from './modules/settings/settings.ts'
import { MIRROR_NEEDED } from './operations/rebuild-control.ts'
import { printMirror, printRebuild, rebuildRequest } from './rebuild-cli.ts'

type Service = Awaited<ReturnType<typeof compose>>

/** A line on stderr every few seconds while a long command works, so a terminal never looks hung. */
async function withProgress<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const timer = setInterval(() => console.error(`${what}: working (${Math.round((performance.now() - started) / 1000)} s)`), 2000)
  try {
    return await work()
  } finally {
    clearInterval(timer)
  }
}

/** `cli settings set`, `resources import`, `rebuild` and `restore` (docs/operations.md): the whole site's commands. */
export const siteCommands: Record<string, CliCommand<Service>> = {
  'settings set': async ({ ctx }, args) => {
    const flags = {
      'icon-url': 'iconUrl',
      'icon-alt': 'iconAlt',
      'name-en': 'nameEn',
      'name-zh': 'nameZh',
      'description-en': 'descriptionEn',
      'description-zh': 'descriptionZh',
      'label-en': 'labelEn',
      'label-zh': 'labelZh',
    } as const
    const { values } = options(args, Object.fromEntries(Object.keys(flags).map((flag) => [flag, { type: 'string' as const }])))
    const req = Object.fromEntries(Object.entries(flags).map(([flag, field]) => [field, values[flag] as string | undefined]))
    console.log(JSON.stringify(await savePublicationSettings(ctx, req)))
  },
  'resources import': async ({ ctx }, args) => {
    if (!args[0]) throw new UsageError('resources import needs a FILE.json')
    const counts = await withProgress('resources import', () => importResources(ctx, args[0]!))
    const line = (c: Counts) => `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`
    console.log(`categories: ${line(counts.categories)}\nresources: ${line(counts.resources)}`)
  },
  rebuild: async (service, args) => {
    const { force, verify, target } = rebuildRequest(args)
    if (target === 's3' && !service.mirror) throw new UsageError(MIRROR_NEEDED)
    await rebuild(service.publisher, force, verify)
    if (target === 's3') await mirrorRebuild(service.mirror!, force)
  },
  // Runs after `restore` put the files in place (see restoreFiles): the restored database's artifacts.
  restore: ({ publisher }) => rebuild(publisher, false),
}

/** The cache brought to what the database calls for (the summary: rebuild-cli.ts `printRebuild`). */
async function rebuild(publisher: Service['publisher'], force: boolean, verify = false): Promise<void> {
  const started = performance.now()
  const stats = await withProgress('rebuild', () => publisher.rebuild({ force, verify }))
  printRebuild(stats, verify, performance.now() - started)
}

/** The bucket brought in line with the artifacts just rebuilt on disk; with `force`, every object put again. */
async function mirrorRebuild(mirror: NonNullable<Service['mirror']>, force: boolean): Promise<void> {
  const started = performance.now()
  const summary = await withProgress('rebuild --target s3', () => mirror.reconcile(force))
  printMirror(summary, mirror.location, performance.now() - started)
}

/** `restore`'s first step, before the service opens the database: the backup's files put in place. */
export async function restoreFiles(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = options(args, { force: { type: 'boolean' } })
  if (!positionals[0]) throw new UsageError('restore needs a FILE.tar.gz')
  const { manifest, replacedTo } = await restoreBackup(config, positionals[0], values.force ?? false)
  console.log(`restored ${describeBackup(manifest, positionals[0])}`)
  if (replacedTo) console.log(`the files that were in DATA_DIR are in ${replacedTo}`)
}
