import { backupTargetFault, options, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import { recordBackup } from './modules/console/dashboard.ts'
import { createBackup, describeBackup } from './operations/backup.ts'

/**
 * `cli backup` (docs/operations.md): over the database alone, like the light commands, so beside
 * a running server it adds a small process, not a second copy of the whole service
 * (docs/memory.md, "CLI commands").
 */
export const backupCommands: Record<string, CliCommand<CliService>> = {
  backup: async ({ ctx }, args) => {
    const { values, positionals } = options(args, { force: { type: 'boolean' } })
    const file = positionals[0]
    if (!file) throw new UsageError('backup needs a FILE.tar.gz')
    backupTargetFault(file, values.force ?? false)
    console.log(`backed up ${describeBackup(await createBackup(ctx.config, ctx.db, file), file)}`)
    recordBackup(ctx.db, ctx.clock())
  },
}
