import { parseArgsLine, UsageError, type CliCommand } from './cli-args.ts'
import type { CliService } from './cli-service.ts'
import type { compose } from './main.ts'
import { IMPORT_USAGE } from './modules/import/usage.ts'
import { DomainError, StartupError } from './shared/errors.ts'

type Service = Awaited<ReturnType<typeof compose>>
type Commands<S> = () => Promise<Record<string, CliCommand<S>>>

const USAGE = `usage: npm run --silent cli -- <command>
  token create --name NAME --scopes blog:read,blog:write,blog:publish[,blog:admin]
  token list
  token revoke ID
  settings set [--icon-url URL] [--icon-alt TEXT] [--name-en|--name-zh TEXT] [--description-en|--description-zh TEXT] [--label-en|--label-zh TEXT]
  resources import FILE.json
  rebuild [--force] [--verify] [--target s3]   (done by the server when one runs on DATA_DIR; the CLI waits)
  webhook add --url URL --secret SECRET --events blog.*|blog.post.published[,...] [--disabled]
  webhook list
  webhook deliveries [--status pending|sending|delivered|failed] [--page N]
  webhook redeliver ID
  webhook ping ID
  webhook rotate-secret ID   (prints the new secret once)
  backup FILE.tar.gz [--force]   (--force: replace an existing FILE)
  restore FILE.tar.gz [--force]
  user create --email EMAIL --name NAME --role owner|admin|editor|author   (password on standard input)
  user list
  user disable ID
  user reset-password ID   (password on standard input)
  admin setup-url
  admin require-passkey on|off   (whether admins must confirm a password sign-in with a passkey)
  comments list [--status pending|approved|rejected|all] [--page N]
  comments approve ID
  comments reject ID [--spam]
  pages list [--language en|zh]
  pages publish|unpublish|delete ID
  media variants [--missing]
${IMPORT_USAGE}
and beside the CLI: npm run --silent mcp   (the MCP server over stdio, with FOLIO_TOKEN)`

/**
 * Each command's module, imported when the command runs (docs/benchmarks.md, "CLI start"). The
 * light ones neither render nor announce a change: they run over the database alone, never loading
 * the web framework, the renderer or the migrator. The others run over the composed service.
 */
const LIGHT: Record<string, Commands<CliService>> = {
  token: () => import('./token-cli.ts').then((m) => m.tokenCommands),
  webhook: () => import('./webhook-cli.ts').then((m) => m.webhookCommands),
  user: () => import('./people-cli.ts').then((m) => m.peopleCommands),
  admin: () => import('./people-cli.ts').then((m) => m.peopleCommands),
  comments: () => import('./comments-cli.ts').then((m) => m.commentListing),
  pages: () => import('./pages-cli.ts').then((m) => m.pageListing),
  backup: () => import('./backup-cli.ts').then((m) => m.backupCommands),
}
const site: Commands<Service> = () => import('./site-cli.ts').then((m) => m.siteCommands)
const imports: Commands<Service> = () => import('./modules/import/commands.ts').then((m) => m.IMPORT_COMMANDS)
const FULL: Record<string, Commands<Service>> = {
  settings: site,
  resources: site,
  rebuild: site,
  restore: site,
  comments: () => import('./comments-cli.ts').then((m) => m.commentCommands),
  pages: () => import('./pages-cli.ts').then((m) => m.pageCommands),
  media: () => import('./media-cli.ts').then((m) => m.mediaCommands),
  import: imports,
  export: imports,
  redirects: imports,
}

/** The command `argv` names (its two words, or its one) in a table's module for its first word. */
async function find<S>(table: Record<string, Commands<S>>, argv: string[]) {
  const commands = await table[argv[0] ?? '']?.()
  const name = [`${argv[0]} ${argv[1]}`, argv[0] ?? ''].find((key) => commands && key in commands)
  return name ? { name, command: commands![name]! } : null
}

async function run(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  const light = await find(LIGHT, argv)
  const full = light ? null : await find(FULL, argv)
  const name = light?.name ?? full?.name
  if (!name) {
    console.error(`folio: unknown command "${argv.slice(0, 2).join(' ')}" (--help lists the commands)`)
    return 2
  }
  const args = argv.slice(name.split(' ').length)
  // Loaded past --help, which needs none of them.
  const [{ ConfigError, loadConfig }, { createLogger }, { openCliService }] = await Promise.all([
    import('./config.ts'),
    import('./shared/log.ts'),
    import('./cli-service.ts'),
  ])
  let service: { close(): Promise<void> } | null = null
  try {
    const config = loadConfig()
    // stdout carries the command's answer (a token, a listing); logs go to stderr.
    const log = createLogger(config.logLevel, (line) => process.stderr.write(line + '\n'))
    const lightService = light ? openCliService(config, log) : null
    service = lightService
    if (light && lightService) await light.command(lightService, args)
    else {
      // A server running on DATA_DIR does the rebuild itself: no second renderer beside it (docs/operations.md).
      if (name === 'rebuild' && (await (await import('./rebuild-cli.ts')).rebuiltByServer(config, args))) return 0
      // restore puts the files in place before the service opens the database.
      if (name === 'restore') await (await import('./site-cli.ts')).restoreFiles(config, args)
      const composed = await (await import('./main.ts')).compose(config, { log })
      service = composed
      // A light command on a database still to migrate runs over the whole service, which migrates it.
      await (light ? light.command(composed, args) : full!.command(composed, args))
    }
    return 0
  } catch (error) {
    if (error instanceof DomainError || error instanceof UsageError || error instanceof ConfigError || error instanceof StartupError)
      console.error(`folio: ${error.message}`)
    else if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
      console.error(`folio: ${parseArgsLine(name, error)}`)
    else console.error(`folio: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  } finally {
    await service?.close()
  }
}

process.exit(await run(process.argv.slice(2)))
