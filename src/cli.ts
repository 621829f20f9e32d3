import { backupTargetFault, options, parseArgsLine, positiveId, UsageError, type CliCommand } from './cli-args.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { compose } from './main.ts'
import { createBackup, describeBackup, restoreBackup } from './operations/backup.ts'
import { createLogger } from './shared/log.ts'
import { importResources, type Counts } from './modules/resources/import.ts'
import { IMPORT_COMMANDS, IMPORT_USAGE } from './modules/import/commands.ts'
import { savePublicationSettings } from './modules/settings/settings.ts'
import { createToken, listTokens, parseScopes, revokeToken } from './modules/tokens/tokens.ts'
import { DELIVERY_STATUSES, listDeliveries, redeliver, type DeliveryStatus } from './modules/webhooks/delivery-log.ts'
import { attemptsLabel } from './modules/webhooks/retry-policy.ts'
import { pingReceiver, rotateReceiverSecret } from './modules/webhooks/receiver-actions.ts'
import { listReceivers, saveReceiver } from './modules/webhooks/receivers.ts'
import { DomainError, StartupError } from './shared/errors.ts'
import { peopleCommands } from './people-cli.ts'
import { commentCommands } from './comments-cli.ts'
import { pageCommands } from './pages-cli.ts'
import { mediaCommands } from './media-cli.ts'
import { recordBackup } from './modules/console/dashboard.ts'

type Service = Awaited<ReturnType<typeof compose>>
type Command = CliCommand<Service>

const USAGE = `usage: npm run --silent cli -- <command>
  token create --name NAME --scopes blog:read,blog:write,blog:publish[,blog:admin]
  token list
  token revoke ID
  settings set [--icon-url URL] [--icon-alt TEXT] [--name-en|--name-zh TEXT] [--description-en|--description-zh TEXT] [--label-en|--label-zh TEXT]
  resources import FILE.json
  rebuild [--force] [--verify] [--target s3]
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

const commands: Record<string, Command> = {
  'token create': ({ ctx }, args) => {
    const { values } = options(args, { name: { type: 'string' }, scopes: { type: 'string' } })
    if (!values.name) throw new UsageError('token create needs --name')
    const { id, token } = createToken(ctx.db, values.name, parseScopes(values.scopes ?? ''))
    // The token alone on stdout (`TOKEN=$(… token create …)` captures it); the person at the
    // terminal, whose stderr is not captured, also reads its id and that it is shown once.
    console.log(token)
    if (process.stderr.isTTY) console.error(`created token ${id}; it is shown only this once: store it now (token list shows it masked)`)
  },
  'token list': ({ ctx }, args) => {
    options(args, {}) // no options: an unknown one is refused, not ignored
    console.log(['id', 'name', 'token', 'scopes', 'created', 'last used', 'state'].join('\t'))
    for (const t of listTokens(ctx.db)) {
      console.log(
        [
          t.id,
          t.name,
          t.maskedToken,
          t.scopes.join(','),
          t.createTime,
          t.lastUsedAt ?? 'never used',
          t.revoked ? 'revoked' : 'active',
        ].join('\t'),
      )
    }
  },
  'token revoke': ({ ctx }, args) => {
    revokeToken(ctx.db, positiveId(args[0]), ctx.clock())
    console.log(`revoked token ${args[0]}`)
  },
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
    const { values } = options(args, { target: { type: 'string' }, force: { type: 'boolean' }, verify: { type: 'boolean' } })
    if (values.target !== undefined && values.target !== 's3') throw new UsageError(`--target must be s3, got "${values.target}"`)
    if (values.target === 's3' && !service.mirror)
      throw new UsageError('rebuild --target s3 needs PUBLISH_TARGETS=disk,s3 and the ARTIFACTS_S3_* settings')
    await rebuild(service.publisher, values.force ?? false, values.verify ?? false)
    if (values.target === 's3') await mirrorRebuild(service.mirror!, values.force ?? false)
  },
  'webhook add': ({ ctx }, args) => {
    const { values } = options(args, {
      url: { type: 'string' },
      secret: { type: 'string' },
      events: { type: 'string' },
      disabled: { type: 'boolean' },
    })
    if (!values.url || !values.secret || !values.events) throw new UsageError('webhook add needs --url, --secret and --events')
    const receiver = saveReceiver(ctx, {
      url: values.url,
      secret: values.secret,
      events: values.events.split(','),
      enabled: !values.disabled,
    })
    console.log(`added webhook receiver ${receiver.id}`)
  },
  'webhook list': ({ ctx }, args) => {
    options(args, {})
    console.log(['id', 'url', 'events', 'state', 'secret'].join('\t'))
    for (const r of listReceivers(ctx.db)) {
      const state = r.enabled ? 'enabled' : `disabled${r.disabledReason ? ` (${r.disabledReason})` : ''}`
      console.log([r.id, r.url, r.events.join(','), state, `secret ${r.secretFingerprint}`].join('\t'))
    }
  },
  'webhook deliveries': ({ ctx }, args) => {
    const { values } = options(args, { status: { type: 'string' }, page: { type: 'string' } })
    const status = values.status as DeliveryStatus | undefined
    if (status !== undefined && !DELIVERY_STATUSES.includes(status))
      throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`)
    if (values.page !== undefined && !/^[1-9]\d{0,5}$/.test(values.page))
      throw new UsageError(`--page must be a whole number from 1, got "${values.page}"`)
    const page = listDeliveries(ctx, { status, current: Number(values.page ?? 1), size: 100 })
    console.log(['id', 'status', 'event', 'receiver', 'attempts', 'last answer', 'failure', 'next attempt', 'created'].join('\t'))
    for (const d of page.records) {
      const last = d.lastHttpStatus === null ? '-' : `HTTP ${d.lastHttpStatus}`
      console.log(
        [
          d.id,
          d.status,
          d.event,
          d.receiverUrl,
          attemptsLabel(d.attempts, d.maxAttempts),
          last,
          d.failureReason ?? '',
          d.nextAttemptAt ?? '',
          d.createTime,
        ].join('\t'),
      )
    }
    console.error(`page ${page.current}: ${page.records.length} of ${page.total} deliveries`)
  },
  'webhook ping': ({ ctx }, args) => {
    console.log(`queued test ping delivery ${pingReceiver(ctx, positiveId(args[0])).deliveryId} (blog.ping; see webhook deliveries)`)
  },
  'webhook rotate-secret': ({ ctx }, args) => {
    // The new secret alone on stdout, like a token: shown this once.
    console.log(rotateReceiverSecret(ctx, positiveId(args[0])).secret)
    if (process.stderr.isTTY) console.error('the new signing secret is shown only this once: give it to the receiver now')
  },
  'webhook redeliver': ({ ctx }, args) => {
    const queued = redeliver(ctx, positiveId(args[0]))
    console.log(`queued delivery ${queued.id} (redelivery of ${queued.redeliveryOf})`)
  },
  backup: async ({ ctx }, args) => {
    const { values, positionals } = options(args, { force: { type: 'boolean' } })
    const file = positionals[0]
    if (!file) throw new UsageError('backup needs a FILE.tar.gz')
    backupTargetFault(file, values.force ?? false)
    console.log(`backed up ${describeBackup(await createBackup(ctx.config, ctx.db, file), file)}`)
    recordBackup(ctx.db, ctx.clock())
  },
  ...peopleCommands,
  ...commentCommands,
  ...pageCommands,
  ...mediaCommands,
  // Runs after `restore` put the files in place (see run()): the restored database's artifacts.
  restore: ({ publisher }) => rebuild(publisher, false),
  ...IMPORT_COMMANDS,
}

/**
 * The cache brought to what the database calls for; the summary counts each artifact once:
 * rendered (then written, removed or unchanged) or skipped (its inputs had not changed).
 */
async function rebuild(publisher: Service['publisher'], force: boolean, verify = false): Promise<void> {
  const started = performance.now()
  const stats = await withProgress('rebuild', () => publisher.rebuild({ force, verify }))
  // With --verify (or after a killed pass), the files found not to hold their recorded bytes.
  if (verify || stats.damaged) console.log(`verified artifacts: ${stats.damaged} damaged, ${stats.repaired} repaired`)
  const unchanged = stats.rendered - stats.written - stats.removed
  console.log(
    `rebuilt artifacts: ${stats.rendered} rendered, ${stats.written} written, ${stats.removed} removed, ${unchanged} unchanged, ` +
      `${stats.skipped} skipped in ${Math.round(performance.now() - started)} ms`,
  )
}

/** The bucket brought in line with the artifacts just rebuilt on disk; with `force`, every object put again. */
async function mirrorRebuild(mirror: NonNullable<Service['mirror']>, force: boolean): Promise<void> {
  const started = performance.now()
  const summary = await withProgress('rebuild --target s3', () => mirror.reconcile(force))
  console.log(
    `mirrored to ${mirror.location}: ${summary.put} put, ${summary.deleted} deleted, ${summary.unchanged} unchanged in ${Math.round(performance.now() - started)} ms`,
  )
}

async function restore(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = options(args, { force: { type: 'boolean' } })
  if (!positionals[0]) throw new UsageError('restore needs a FILE.tar.gz')
  const { manifest, replacedTo } = await restoreBackup(config, positionals[0], values.force ?? false)
  console.log(`restored ${describeBackup(manifest, positionals[0])}`)
  if (replacedTo) console.log(`the files that were in DATA_DIR are in ${replacedTo}`)
}

async function run(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE)
    return 0
  }
  const name = [`${argv[0]} ${argv[1]}`, argv[0] ?? ''].find((key) => key in commands)
  if (!name) {
    console.error(`folio: unknown command "${argv.slice(0, 2).join(' ')}" (--help lists the commands)`)
    return 2
  }
  let service: Service | undefined
  try {
    const config = loadConfig()
    // restore puts the files in place before the service opens the database.
    if (name === 'restore') await restore(config, argv.slice(1))
    // stdout carries the command's answer (a token, a listing); logs go to stderr.
    service = await compose(config, { log: createLogger(config.logLevel, (line) => process.stderr.write(line + '\n')) })
    await commands[name]!(service, argv.slice(name.split(' ').length))
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
